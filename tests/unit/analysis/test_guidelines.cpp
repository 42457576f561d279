// SPDX-License-Identifier: BSD-3-Clause
// Performance guidelines (issue 67): the mock-ups as choices of the mpi
// backend (`guidelines: true`), each planned on the library's default
// selection; the report's section pairing each mock-up with the default of
// the same choice, its ratio by core/speedup.hpp, violations first; tune
// leaving the mock-ups out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "analysis/guidelines_check.hpp"
#include "config/experiment.hpp"
#include "core/guidelines.hpp"
#include "core/observation.hpp"
#include "plan/plan.hpp"
#include "reports/guidelines_table.hpp"
#include "support/input_error.hpp"
#include "tuning/tune.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using Catch::Matchers::Contains;

namespace {

// A measured record of `c`'s shape at `algorithm`, 50 samples around `centre`.
CaseResult measured(Case c, const std::string& algorithm, double centre, unsigned seed) {
  CaseResult r;
  c.algorithm = algorithm;
  c.case_id = compute_case_id(c);
  r.c = c;
  r.library = "openmpi";
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, 0.02 * centre);
  std::vector<double> s;
  for (int i = 0; i < 50; ++i) s.push_back(std::max(0.5 * centre, centre + noise(rng)));
  r.timing = compute_stats(s);
  r.iterations = 50;
  r.samples_s = s;
  r.launch = 0;
  return r;
}

Case bcast_case(std::uint64_t bytes, int np = 4) {
  Case c;
  c.collective = Collective::bcast;
  c.dtype = Dtype::float32;
  c.op = Op::none;
  c.count = bytes / 4;
  c.bytes = bytes;
  c.np = np;
  return c;
}

const std::string kPlanned = R"(collectives: [allreduce, bcast, reduce, allgather, gather, reduce_scatter, scan, alltoall]
sizes: [8B, 64KiB]
processes: [4]
backends:
  - {library: mpi, algorithms: [default], guidelines: true}
)";

}  // namespace

TEST_CASE("guidelines: the standard set, each a mock-up of its collective") {
  const auto all = guidelines();
  CHECK(all.size() >= 8);
  for (const Guideline& g : all) {
    CHECK(is_guideline(g.algorithm));
    CHECK(find_guideline(g.algorithm) == &g);
    const auto of = guidelines_of(g.collective);
    CHECK(std::any_of(of.begin(), of.end(), [&](const Guideline& h) { return &h == &g; }));
  }
  CHECK(guidelines_of(Collective::allreduce).size() == 2);
  CHECK(guidelines_of(Collective::alltoall).empty());
  CHECK_FALSE(is_guideline("default"));
}

TEST_CASE("guidelines: `guidelines: true` plans each collective's mock-ups on the library's default") {
  const Experiment e = parse_experiment(kPlanned, "g.yaml");
  REQUIRE(e.backends.at(0).guidelines);
  const Plan plan = make_plan(e, PlanTarget{"openmpi", "4.1.4"});
  std::map<std::string, std::string> skipped;
  for (const SkippedCase& s : plan.skipped) skipped[s.c.case_id] = s.reason;
  int mock_ups = 0;
  for (const Case& c : plan.cases) {
    if (c.collective == Collective::alltoall) CHECK_FALSE(is_guideline(c.algorithm));  // no mock-up of its own
    if (!is_guideline(c.algorithm)) continue;
    ++mock_ups;
    CHECK(find_guideline(c.algorithm)->collective == c.collective);
    // The library's default selection: Open MPI's tuned variable at 0 ("ignore").
    CHECK(c.selection.mechanism == "mpi_t");
    CHECK(c.selection.value == "0");
    const bool splits = find_guideline(c.algorithm)->splits_count;
    if (splits && c.bytes == 8) {  // 2 float32 elements do not split into 4 blocks
      CHECK_THAT(skipped.at(c.case_id), Contains("not a multiple of 4"));
    } else {
      CHECK_FALSE(skipped.contains(c.case_id));
    }
  }
  CHECK(mock_ups == static_cast<int>(guidelines().size()) * 2);
  // Every default case and mock-up of the mpi backend share one launch (one np, one environment).
  CHECK(plan.groups.size() == 1);
}

TEST_CASE("guidelines: mock-ups are named like algorithms, skipped where they cannot run") {
  const Experiment named = parse_experiment(R"(collectives: [bcast, allreduce]
sizes: [64KiB]
processes: [4]
in_place: both
backends:
  - {library: mpi, algorithms: ["guideline:scatter+allgather"]}
)", "n.yaml");
  const Plan plan = make_plan(named, PlanTarget{"openmpi", "4.1.4"});
  std::vector<std::string> reasons;
  for (const SkippedCase& s : plan.skipped)
    if (is_guideline(s.c.algorithm)) reasons.push_back(s.reason);
  // allreduce out of place and in place: not its mock-up; bcast has no in-place form, so none is planned.
  REQUIRE(reasons.size() == 2);
  for (const std::string& r : reasons) CHECK_THAT(r, Contains("is a mock-up of bcast, not of allreduce"));
  Case in_place = bcast_case(64);
  in_place.collective = Collective::allreduce;
  in_place.algorithm = "guideline:reduce+bcast";
  in_place.in_place = true;
  CHECK_THAT(guideline_skip_reason(in_place), Contains("no in-place form"));
  in_place.in_place = false;
  in_place.options[kCall] = "nonblocking";
  CHECK_THAT(guideline_skip_reason(in_place), Contains("no nonblocking form"));
}

TEST_CASE("guidelines: the key belongs to the mpi backend") {
  try {
    parse_experiment("collectives: [allreduce]\nsizes: [8B]\nbackends:\n"
                     "  - {library: reference, algorithms: [ring], guidelines: true}\n",
                     "r.yaml");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Contains("r.yaml:4:"));
    CHECK_THAT(std::string(e.what()), Contains("'guidelines' applies to backend 'mpi' only"));
  }
}

TEST_CASE("guidelines: each mock-up paired with the default of its choice, violations first") {
  std::vector<CaseResult> cases{
      // 64 KiB on 4 ranks: the default twice the mock-up's time (violated).
      measured(bcast_case(65536), "default", 2e-4, 1), measured(bcast_case(65536), "guideline:scatter+allgather", 1e-4, 2),
      // 1 MiB: the default half the mock-up's time (holds).
      measured(bcast_case(1 << 20), "default", 1e-3, 3), measured(bcast_case(1 << 20), "guideline:scatter+allgather", 2e-3, 4),
      // 4 KiB on 2 ranks: no default measured.
      measured(bcast_case(4096, 2), "guideline:scatter+allgather", 1e-5, 5),
      // Another algorithm at 64 KiB is no side of any guideline.
      measured(bcast_case(65536), "binomial", 1e-6, 6)};
  CaseResult failed = measured(bcast_case(8192), "guideline:scatter+allgather", 1e-5, 7);
  failed.fail("validation: 3 mismatching elements");
  cases.push_back(failed);
  const GuidelineReport g = check_guidelines(cases, "openmpi", "4.1.4");
  REQUIRE(g.checks.size() == 2);
  const GuidelineCheck& first = g.checks[0];
  CHECK(first.verdict == "violated");
  CHECK(first.example->c.bytes == 65536);
  CHECK(first.default_cases == std::vector<std::string>{cases[0].c.case_id});
  CHECK(first.mock_up_cases == std::vector<std::string>{cases[1].c.case_id});
  // The project's one speedup: default time / mock-up time, its interval holding it.
  const MeasuredSpeedup same = speedup_of({observation_of(cases[0], "report")}, {observation_of(cases[1], "report")},
                                          Objective::median);
  CHECK(first.ratio.estimate == Approx(same.estimate));
  CHECK(first.ratio.estimate == Approx(2.0).epsilon(0.05));
  CHECK(first.ratio.low <= first.ratio.estimate);
  CHECK(first.ratio.estimate <= first.ratio.high);
  CHECK(first.ratio.low > 1);
  CHECK_THAT(first.text, Contains("Open MPI 4.1.4's default bcast at 64KiB (float32) on 4 ranks is " +
                                   speedup_estimate_text(first.ratio) + " slower than its own scatter + allgather, " +
                                   speedup_interval_text(first.ratio)));
  CHECK(g.checks[1].verdict == "holds");
  CHECK(g.checks[1].ratio.high < 1);
  REQUIRE(g.unchecked.size() == 2);
  CHECK_THAT(g.unchecked[0] + g.unchecked[1], Contains("failed: validation: 3 mismatching elements"));
  CHECK_THAT(g.unchecked[0] + g.unchecked[1], Contains("default was not measured"));

  const nlohmann::json section = guidelines_to_json(g);
  CHECK(section.at("checked") == 2);
  CHECK(section.at("violated") == 1);
  CHECK(section.at("checks")[0].at("verdict") == "violated");
  CHECK(section.at("checks")[0].at("sizes").get<std::string>().find("n/p bytes per rank") != std::string::npos);
  const std::string shown = render_guidelines(nlohmann::json{{"guidelines", section}});
  CHECK_THAT(shown, Contains("performance guidelines: 2 checked, 1 violated"));
  CHECK_THAT(shown, Contains("violations:\n  Open MPI 4.1.4's default bcast at 64KiB"));
  CHECK(shown.find("violated") < shown.find("holds"));
  CHECK(render_guidelines(nlohmann::json::object()).empty());
  CHECK(guidelines_to_json(check_guidelines({cases[0]}, "openmpi", "4.1.4")).is_null());  // no mock-up, no section
}

TEST_CASE("guidelines: tune leaves the mock-ups out and says so") {
  nlohmann::json report = {{"schema", "pico-report/1"},
                           {"platform", {{"name", "local"}}},
                           {"run", {{"results_dir", "results/local/20261124-000000-bbbb"}}},
                           {"provenance", {{"mpi", {{"library", "openmpi"}, {"version", "4.1.4"}}}}},
                           {"cases", nlohmann::json::array()}};
  Case c = test::allreduce_record("default", 65536).c;
  // The mock-up far faster than anything the library can be made to run.
  for (const CaseResult& r : {measured(c, "default", 2e-4, 1), measured(c, "ring", 1.9e-4, 2),
                              measured(c, "guideline:reduce+bcast", 1e-5, 3)})
    report["cases"].push_back(to_json(r));
  const TuneAnalysis a = analyse_reports({{"r", report}}, {});
  CHECK(a.mock_ups_left_out == 1);
  const SizeChoice& s = a.keys.at(0).sizes.at(0);
  CHECK(s.fastest != "guideline:reduce+bcast");
  CHECK(s.candidates == 2);
  CHECK_THAT(render_tune_summary(a, {}), Contains("1 mock-up case left out"));
}
