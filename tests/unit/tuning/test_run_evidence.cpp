// SPDX-License-Identifier: BSD-3-Clause
// tune's evidence (issue 66): a run counts once however often its report is
// given (twice, as DIR and DIR/report.json, 40 times), its intervals those of
// one run; a sweep run with a profile loaded and a run that measured nothing
// are refused; tune --check refuses a tuned run of another profile.
#include <catch2/catch.hpp>

#include <random>

#include "core/case_result.hpp"
#include "support/input_error.hpp"
#include "tuning/check.hpp"
#include "tuning/run_evidence.hpp"
#include "tuning/tune.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using nlohmann::json;

namespace {

constexpr const char* kRun = "20261124-000000-aaaa";

CaseResult evidence_record(const std::string& algorithm, std::uint64_t bytes, double centre, unsigned seed) {
  CaseResult r = test::allreduce_record(algorithm, bytes);
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, 0.1 * centre);
  std::vector<double> s;
  for (int i = 0; i < 50; ++i) s.push_back(std::max(0.05 * centre, centre + noise(rng)));
  r.timing = compute_stats(s);
  r.iterations = 50;
  r.samples_s = s;
  r.launch = 0;
  return r;
}

// A sweep at 8 B and 1 MiB, ring 1.15x faster at 1 MiB: decided from one run, not certain.
json sweep_report(const std::string& run = kRun) {
  json j = {{"schema", "pico-report/1"},
            {"platform", {{"name", "local"}}},
            {"run", {{"results_dir", "results/local/" + run}}},
            {"provenance", {{"mpi", {{"library", "openmpi"}, {"version", "4.1.4"}}}}},
            {"cases", json::array()}};
  for (const CaseResult& c :
       {evidence_record("default", 8, 2e-6, 1), evidence_record("ring", 8, 3e-6, 2),
        evidence_record("default", 1048576, 1.15e-3, 3), evidence_record("ring", 1048576, 1e-3, 4)})
    j["cases"].push_back(to_json(c));
  return j;
}

const SizeChoice& at_1mib(const TuneAnalysis& a) { return a.keys.at(0).sizes.at(1); }

}  // namespace

TEST_CASE("evidence: one run given as DIR, DIR/report.json and 40 times is one run, said so") {
  const std::string dir = std::string("results/local/") + kRun;
  const TuneAnalysis once = analyse_reports({{dir, sweep_report()}}, {});
  std::vector<LoadedReport> copies{{dir, sweep_report()}, {dir + "/report.json", sweep_report()}};
  for (int i = 0; i < 38; ++i) copies.push_back({"copy" + std::to_string(i), sweep_report()});
  const TuneAnalysis many = analyse_reports(copies, {});
  CHECK(many.reports == std::vector<std::string>{kRun});
  // The copies did not shrink the interval nor add launches: 40 copies decided what one run cannot.
  CHECK(at_1mib(many).default_launches == 1);
  CHECK(at_1mib(many).fastest_speedup.low == Approx(at_1mib(once).fastest_speedup.low));
  CHECK(at_1mib(many).fastest_speedup.high == Approx(at_1mib(once).fastest_speedup.high));
  CHECK(at_1mib(many).algorithm == at_1mib(once).algorithm);
  CHECK(at_1mib(many).evidence.size() == at_1mib(once).evidence.size());
  REQUIRE(many.repeated.size() == 1);
  CHECK_THAT(many.repeated[0], Catch::Matchers::StartsWith(std::string(kRun) + ": given 40 times (" + dir + ", " + dir +
                                                           "/report.json, copy0,"));
  CHECK_THAT(render_tune_summary(many, {}), Catch::Matchers::Contains("one run, counted once"));
  CHECK(once.repeated.empty());
}

TEST_CASE("evidence: a report without results_dir is named by its path, DIR and DIR/report.json alike") {
  json j = sweep_report();
  j.erase("run");
  CHECK(run_id_of({"res/run-1", j}) == "run-1");
  CHECK(run_id_of({"res/run-1/", j}) == "run-1");
  CHECK(run_id_of({"res/run-1/report.json", j}) == "run-1");
  CHECK(distinct_runs({{"res/run-1", j}, {"res/run-1/report.json", j}}).reports.size() == 1);
}

TEST_CASE("evidence: two different reports of one run id are refused, naming both") {
  json later = sweep_report();
  later["cases"].push_back(to_json(evidence_record("ring", 65536, 1e-6, 9)));
  try {
    distinct_runs({{"a", sweep_report()}, {"b", later}});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file == "b");
    CHECK_THAT(e.message, Catch::Matchers::Contains(std::string("is run ") + kRun + ", as a is"));
  }
}

TEST_CASE("evidence: a sweep run with a profile loaded is refused, a tuned one is not") {
  json tuned = sweep_report();
  tuned["provenance"]["profile"] = {{"path", "/p/profile.json"}, {"hash", "0123456789abcdef"}};
  CHECK_THROWS_WITH(analyse_reports({{"t", tuned}}, {}),
                    Catch::Matchers::Contains("ran with the profile /p/profile.json loaded"));
  // Besides a good sweep, too: the profile's run must not slip in as more of the default.
  CHECK_THROWS_AS(analyse_reports({{"s", sweep_report("other")}, {"t", tuned}}, {}), InputError);
  CHECK_NOTHROW(analyse_reports({{"t", tuned}}, {}, EvidenceKind::tuned));
}

TEST_CASE("evidence: a run whose every case failed is refused with the first reason") {
  json failed = sweep_report("failed-run");
  for (json& c : failed["cases"]) {
    c["status"] = "failed";
    c["reason"] = "worker exited with code 1";
    c.erase("timing");
  }
  try {
    analyse_reports({{"s", sweep_report()}, {"f", failed}}, {});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file == "f");
    CHECK_THAT(e.message, Catch::Matchers::Contains("measured none of its cases (4 failed, 0 skipped; the first: worker "
                                                    "exited with code 1)"));
  }
  json empty = sweep_report("empty-run");
  empty["cases"] = json::array();
  CHECK_THROWS_WITH(analyse_reports({{"e", empty}}, {}), Catch::Matchers::Contains("holds no case"));
}

TEST_CASE("evidence: tune --check refuses a tuned run of another profile, and counts a repeated run once") {
  TunedProfile p;
  p.library = {"mpi", "openmpi", "4.1.4"};
  ProfileRule rule;
  rule.collective = Collective::allreduce;
  rule.comm_size = 4;
  rule.nodes = 1;
  rule.ppn = 4;
  rule.ranges = {test::profile_range(0, std::nullopt, "ring")};
  p.rules = {rule};
  json tuned = sweep_report("tuned-run");
  tuned["provenance"]["profile"] = {{"path", "/p/other.json"}, {"hash", "ffffffffffffffff"}};
  const LoadedReport sweep{"sweep", sweep_report()};
  try {
    check_profile_against(p, "mine.json", "0123456789abcdef", {sweep, {"tuned", tuned}}, {});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file == "tuned");
    CHECK_THAT(e.message, Catch::Matchers::Contains("ran with the profile /p/other.json (hash ffffffffffffffff), not "
                                                    "mine.json (hash 0123456789abcdef)"));
  }
  json unhashed = tuned;
  unhashed["provenance"]["profile"].erase("hash");
  CHECK_THROWS_WITH(check_profile_against(p, "mine.json", "0123456789abcdef", {sweep, {"tuned", unhashed}}, {}),
                    Catch::Matchers::Contains("records no hash of the profile it loaded"));
  tuned["provenance"]["profile"]["hash"] = "0123456789abcdef";
  const CheckResult once = check_profile_against(p, "mine.json", "0123456789abcdef", {sweep, {"tuned", tuned}}, {});
  const CheckResult twice = check_profile_against(p, "mine.json", "0123456789abcdef",
                                                  {sweep, {"tuned", tuned}, {"tuned/report.json", tuned}}, {});
  REQUIRE(twice.rows.size() == once.rows.size());
  CHECK(twice.rows[1].vs_default.low == Approx(once.rows[1].vs_default.low));
  CHECK(twice.rows[1].tuned_launches == 1);
  REQUIRE(twice.repeated.size() == 1);
  CHECK_THAT(render_check(twice, {}), Catch::Matchers::Contains("tuned-run: given 2 times (tuned, tuned/report.json): "
                                                                "one run, counted once"));
}
