// SPDX-License-Identifier: BSD-3-Clause
// pico tune from reports: the choice per size (kept only with confidence),
// ranges merged with boundaries at geometric midpoints, the evidence, and
// the refusals (mixed libraries, several variants at one size).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>

#include "core/case_result.hpp"
#include "support/input_error.hpp"
#include "tuning/tune.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using nlohmann::json;

namespace {

CaseResult measured(const std::string& algorithm, std::uint64_t bytes, double centre, unsigned seed, int launch = 0,
                    double spread = 0.02, int samples = 100) {
  CaseResult r = test::allreduce_record(algorithm, bytes);
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, spread * centre);
  std::vector<double> s;
  for (int i = 0; i < samples; ++i) s.push_back(std::max(0.05 * centre, centre + noise(rng)));
  r.timing = compute_stats(s);
  r.iterations = 100;
  r.samples_s = s;
  r.launch = launch;
  return r;
}

LoadedReport report_of(const std::vector<CaseResult>& cases, const std::string& library = "openmpi",
                       const std::string& version = "4.1.4", const std::string& run = "20261124-000000-aaaa") {
  json j = {{"schema", "pico-report/1"},
            {"platform", {{"name", "local"}}},
            {"run", {{"results_dir", "results/local/" + run}}},
            {"provenance",
             {{"mpi", {{"library", library}, {"version", version}}},
              {"hosts", json::array({{{"name", "h0"}}})},
              {"launches", json::array({{{"launch", 0}, {"hosts", json::array({{{"name", "h0"}}})}}})}}},
            {"cases", json::array()}};
  for (const CaseResult& c : cases) j["cases"].push_back(to_json(c));
  return {"results/local/" + run, j};
}

// Default 2 us everywhere; recursive_doubling 1 us at 8 B; ring 1 us at 1 MiB;
// at 64 KiB ring is only 2% faster (below the 5% gain).
std::vector<CaseResult> sweep() {
  return {measured("default", 8, 2e-6, 1),          measured("recursive_doubling", 8, 1e-6, 2),
          measured("ring", 8, 3e-6, 3),             measured("default", 65536, 2e-6, 4),
          measured("recursive_doubling", 65536, 4e-6, 5), measured("ring", 65536, 1.96e-6, 6),
          measured("default", 1048576, 2e-6, 7),    measured("recursive_doubling", 1048576, 5e-6, 8),
          measured("ring", 1048576, 1e-6, 9)};
}

}  // namespace

TEST_CASE("tune: per size the confident winner, merged into ranges at geometric midpoints") {
  const TuneAnalysis a = analyse_reports({report_of(sweep())}, {});
  REQUIRE(a.keys.size() == 1);
  CHECK(a.library.name == "openmpi");
  CHECK(a.library.version == "4.1.4");
  CHECK(a.reports == std::vector<std::string>{"20261124-000000-aaaa"});
  const auto& sizes = a.keys[0].sizes;
  REQUIRE(sizes.size() == 3);
  CHECK(sizes[0].algorithm == "recursive_doubling");
  CHECK(sizes[0].speedup.low > 1.9);
  CHECK(sizes[1].algorithm == "default");
  CHECK(sizes[1].fastest == "ring");  // faster, but not by the gain with confidence
  CHECK(sizes[2].algorithm == "ring");

  const TunedProfile p = profile_from_analysis(a, {});
  REQUIRE(p.rules.size() == 1);
  const auto& r = p.rules[0].ranges;
  REQUIRE(r.size() == 3);
  CHECK(r[0].min_bytes == 0);
  CHECK(*r[0].max_bytes == range_boundary(8, 65536) - 1);
  CHECK(r[1].algorithm == "default");
  CHECK_FALSE(r[1].speedup.has_value());
  CHECK(r[2].min_bytes == range_boundary(65536, 1048576));
  CHECK_FALSE(r[2].max_bytes.has_value());
  CHECK(r[2].algorithm == "ring");
  REQUIRE(r[2].evidence.size() == 1);
  CHECK(r[2].evidence[0].bytes == 1048576);
  CHECK(r[2].evidence[0].seconds == Approx(1e-6).epsilon(0.05));
  CHECK(r[2].evidence[0].default_seconds == Approx(2e-6).epsilon(0.05));
  CHECK(r[2].measured_bytes == std::vector<std::uint64_t>{1048576});
  CHECK_NOTHROW(check_profile(p, "test"));
  CHECK(p.choose(Collective::allreduce, 4, 8)->algorithm == "recursive_doubling");

  const std::string summary = render_tune_summary(a, {});
  CHECK_THAT(summary, Catch::Matchers::Contains("recursive_doubling"));
  CHECK_THAT(summary, Catch::Matchers::Contains("default (not confident)"));
  // A choice that is the fastest says so; its name is in the fastest column once, not repeated.
  const std::size_t row = summary.find("recursive_doubling");
  const std::string line = summary.substr(row, summary.find('\n', row) - row);
  CHECK_THAT(line, Catch::Matchers::EndsWith("the fastest"));
  CHECK(line.find("recursive_doubling", 1) == std::string::npos);
}

TEST_CASE("tune: a smaller min_gain keeps a smaller win, neighbouring equal choices merge") {
  TuneOptions loose;
  loose.min_gain = 0.0;
  auto cases = sweep();
  // ring is 2x faster at 64 KiB too now: the 64 KiB and 1 MiB sizes merge.
  cases[5] = measured("ring", 65536, 1e-6, 6);
  const TunedProfile p = profile_from_analysis(analyse_reports({report_of(cases)}, loose), loose);
  REQUIRE(p.rules[0].ranges.size() == 2);
  CHECK(p.rules[0].ranges[1].algorithm == "ring");
  CHECK(p.rules[0].ranges[1].measured_bytes == std::vector<std::uint64_t>{65536, 1048576});
}

TEST_CASE("tune: reports of different libraries or versions are refused, naming both") {
  try {
    analyse_reports({report_of(sweep()), report_of(sweep(), "openmpi", "5.0.3", "20261124-000000-bbbb")}, {});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file == "results/local/20261124-000000-bbbb");
    CHECK_THAT(e.message, Catch::Matchers::Contains("openmpi 5.0.3"));
    CHECK_THAT(e.message, Catch::Matchers::Contains("openmpi 4.1.4"));
  }
}

TEST_CASE("tune: one size measured with two datatypes is refused") {
  auto cases = sweep();
  CaseResult other = measured("default", 8, 2e-6, 11);
  other.c.dtype = Dtype::int32;
  other.c.case_id = compute_case_id(other.c);
  cases.push_back(other);
  CHECK_THROWS_WITH(analyse_reports({report_of(cases)}, {}), Catch::Matchers::Contains("a profile chooses by size only"));
}

TEST_CASE("tune: without a default there is nothing to compare with") {
  CHECK_THROWS_AS(analyse_reports({report_of({measured("ring", 8, 1e-6, 1)})}, {}), InputError);
}

TEST_CASE("tune: only the default measured is refused: an all-default profile would be a silent non-answer") {
  // issue 36: this wrote a profile of defaults and said "the default was the fastest at every measured size".
  const std::vector<CaseResult> defaults{measured("default", 8, 2e-6, 1), measured("default", 65536, 3e-6, 2)};
  CHECK_THROWS_WITH(require_rivals(analyse_reports({report_of(defaults)}, {}), "r"),
                    Catch::Matchers::Contains("no size was measured with an algorithm besides the library's default"));
  // One size with a rival is enough: the others keep the default for want of one.
  std::vector<CaseResult> one = defaults;
  one.push_back(measured("ring", 8, 1e-6, 3));
  CHECK_NOTHROW(require_rivals(analyse_reports({report_of(one)}, {}), "r"));
}

TEST_CASE("tune: repeated launches in several reports pool, one evidence entry per launch") {
  auto a = sweep();
  auto b = sweep();
  for (auto& c : b) c.launch = 0;
  const TuneAnalysis t = analyse_reports({report_of(a), report_of(b, "openmpi", "4.1.4", "20261124-000000-bbbb")}, {});
  CHECK(t.keys[0].sizes[0].default_launches == 2);
  const TunedProfile p = profile_from_analysis(t, {});
  CHECK(p.rules[0].ranges[0].evidence.size() == 2);
}

TEST_CASE("tune: a candidate a race dropped is not compared, in any repetition") {
  // ring looks 2x faster at 8 B in the samples it ran (the first rounds, on a
  // fast moment), but the race dropped it; in a second report it survived.
  auto dropped = [](CaseResult r) {
    r.race = RaceRecord{.fate = RaceFate::dropped, .reason = "dropped after round 0", .rounds = 1, .race_rounds = 3,
                        .entrants = 3, .winner = "recursive_doubling", .stop = "settled", .budget_s = 1, .spent_s = 1};
    return r;
  };
  const std::vector<CaseResult> first{measured("default", 8, 2e-6, 1), measured("recursive_doubling", 8, 1.5e-6, 2),
                                      dropped(measured("ring", 8, 1e-6, 3))};
  const std::vector<CaseResult> second{measured("default", 8, 2e-6, 4, 1), measured("recursive_doubling", 8, 1.5e-6, 5, 1),
                                       measured("ring", 8, 1e-6, 6, 1)};
  const TuneAnalysis a =
      analyse_reports({report_of(first), report_of(second, "openmpi", "4.1.4", "20261124-000000-bbbb")}, {});
  REQUIRE(a.keys.size() == 1);
  const SizeChoice& s = a.keys[0].sizes.at(0);
  CHECK(s.algorithm == "recursive_doubling");
  CHECK(s.fastest == "recursive_doubling");
  CHECK(s.candidates == 3);
  CHECK(s.race_dropped == 1);
  CHECK_THAT(render_tune_summary(a, {}), Catch::Matchers::Contains("1 candidate(s) a race dropped"));
}

TEST_CASE("tune: a size whose data cannot tell the candidates apart is undecided and keeps the default") {
  // At 8 B recursive_doubling wins clearly (P near 1). At 4 KiB two
  // candidates 8% apart, both far ahead of the default, are measured with a
  // 60% spread in 10 samples each: which is faster within 5% the data cannot
  // say, and the size keeps the default, marked undecided.
  const std::vector<CaseResult> cases{measured("default", 8, 2e-6, 1),
                                      measured("recursive_doubling", 8, 1e-6, 2),
                                      measured("default", 4096, 4e-6, 3),
                                      measured("ring", 4096, 1.0e-6, 4, 0, 0.6, 10),
                                      measured("recursive_doubling", 4096, 1.08e-6, 5, 0, 0.6, 10)};
  const TuneAnalysis a = analyse_reports({report_of(cases)}, {});
  REQUIRE(a.keys.size() == 1);
  const auto& sizes = a.keys[0].sizes;
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[0].algorithm == "recursive_doubling");
  REQUIRE(sizes[0].near_fastest.has_value());
  CHECK(*sizes[0].near_fastest >= 0.99);
  CHECK_FALSE(sizes[0].undecided);
  CHECK(sizes[1].undecided);
  CHECK(sizes[1].algorithm == "default");
  CHECK_FALSE(sizes[1].considered.empty());
  REQUIRE(sizes[1].near_fastest.has_value());
  CHECK(*sizes[1].near_fastest < 0.1);  // the kept default's own: far from the fastest
  CHECK(sizes[1].considered_near < 0.8);
  // With a lower bar the same data decide.
  TuneOptions lenient;
  lenient.decide_from = 0.0;
  CHECK(analyse_reports({report_of(cases)}, lenient).keys[0].sizes[1].algorithm != "default");
  // The profile keeps the default there and says so.
  const TunedProfile p = profile_from_analysis(a, {});
  CHECK(p.rules[0].ranges.back().algorithm == "default");
  CHECK(p.rules[0].ranges.back().undecided_bytes == std::vector<std::uint64_t>{4096});
  CHECK_THAT(render_tune_summary(a, {}), Catch::Matchers::Contains("undecided: default kept"));
  CHECK_THAT(render_tune_summary(a, {}), Catch::Matchers::Contains("1 of 2 sizes undecided"));
  // Issue 65: the line names what its P is, without docs/tuning.md (--wide: on the size's row).
  const std::string summary = render_tune_summary(a, {}, pico::kUnlimitedWidth);
  CHECK_THAT(summary, Catch::Matchers::Contains(
                          fmt::format("undecided: default kept (the test chose {}, but only {:.0f}% of the bootstrap's "
                                      "replicates put it within 5% of the fastest; 80% decides)",
                                      sizes[1].considered, sizes[1].considered_near * 100)));
  CHECK_THAT(summary, Catch::Matchers::Contains("P: the probability, over the bootstrap's replicates"));
}

TEST_CASE("tune: no `next: pico export` for a profile that keeps the default everywhere (issue 65)") {
  const TunedProfile changes = profile_from_analysis(analyse_reports({report_of(sweep())}, {}), {});
  CHECK(changes_anything(changes));
  CHECK_THAT(render_profile_written(changes, "p.json"),
             Catch::Matchers::Contains("\n  pico export p.json --format FORMAT -o FILE\n"));
  // A stricter gain than any candidate clears: every size keeps the default.
  TuneOptions strict;
  strict.min_gain = 10;
  const TunedProfile nothing = profile_from_analysis(analyse_reports({report_of(sweep())}, strict), strict);
  CHECK_FALSE(changes_anything(nothing));
  const std::string text = render_profile_written(nothing, "p.json");
  CHECK_THAT(text, !Catch::Matchers::Contains("pico export"));
  CHECK_THAT(text, Catch::Matchers::Contains("keeps the library default at every size"));
}

TEST_CASE("tune: a report whose ranks outnumbered cores marks the profile (issue 51)") {
  LoadedReport r = report_of(sweep());
  CHECK(profile_from_analysis(analyse_reports({r}, {}), {}).warnings.empty());
  r.report["provenance"]["hosts"] = json::array(
      {{{"name", "h0"}, {"ranks", json::array({0, 1, 2})}, {"topology", {{"cores", 2}}}}});
  r.report["provenance"].erase("launches");
  const TunedProfile p = profile_from_analysis(analyse_reports({r}, {}), {});
  REQUIRE(p.warnings.size() == 1);
  CHECK_THAT(p.warnings[0], Catch::Matchers::StartsWith("20261124-000000-aaaa: oversubscribed") &&
                                Catch::Matchers::Contains("3 ranks on host h0 with 2 cores"));
  CHECK(to_json(p).at("warnings") == json::array({p.warnings[0]}));
}

TEST_CASE("tune: a platform's claimed placement gives way to the hosts the ranks ran on (issue 66)") {
  LoadedReport r = report_of(sweep());
  CHECK(analyse_reports({r}, {}).placement_notes.empty());  // no placement_planned: nothing claimed
  // The platform claims 2 nodes x 2 ranks; all 4 ranks of np 4 ran on host h0.
  r.report["provenance"]["placement_planned"] = {{"ranks_per_node", 2}, {"fill", "node after node"},
                                                 {"source", "the platform's placement (p.yaml)"}};
  r.report["provenance"]["launches"] =
      json::array({{{"launch", 0}, {"hosts", json::array({{{"name", "h0"}, {"ranks", json::array({0, 1, 2, 3})}}})}}});
  const TuneAnalysis a = analyse_reports({r}, {});
  REQUIRE(a.placement_notes.size() == 1);
  CHECK(a.placement_notes[0] == "20261124-000000-aaaa: np 4 tuned as its ranks ran, on 1 node (rules for 1 node(s) x 4 "
                                "ppn), not as the platform's placement claims (2 nodes x 2 ranks)");
  REQUIRE_FALSE(a.keys.empty());
  for (const KeyChoices& k : a.keys) CHECK((k.key.nodes == 1 && k.key.ppn == 4));
  CHECK_THAT(render_tune_summary(a, {}, pico::kUnlimitedWidth), Catch::Matchers::Contains(a.placement_notes[0]));
  // Where they did run on 2 hosts x 2, the claim held: no note, and the rules are for 2 x 2.
  r.report["provenance"]["launches"] = json::array(
      {{{"launch", 0},
        {"hosts", json::array({{{"name", "h0"}, {"ranks", json::array({0, 1})}},
                               {{"name", "h1"}, {"ranks", json::array({2, 3})}}})}}});
  const TuneAnalysis held = analyse_reports({r}, {});
  CHECK(held.placement_notes.empty());
  for (const KeyChoices& k : held.keys) CHECK((k.key.nodes == 2 && k.key.ppn == 2));
}

TEST_CASE("tune: a winner's parameters widen its column, not push the others out of line (issue 51)") {
  std::vector<CaseResult> cases = sweep();
  cases[5].c.params = {{"segment_size", 65536}, {"fanout", 4}};  // ring at 64 KiB, now the fastest
  cases[5].timing = compute_stats(std::vector<double>(100, 1e-6));
  const std::string summary = render_tune_summary(analyse_reports({report_of(cases)}, {}), {});
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = summary.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(summary.substr(at, end - at));
  REQUIRE(lines.size() >= 4);  // the heading, the columns' names, 8 B and 64 KiB and 1 MiB rows
  CHECK_THAT(summary, Catch::Matchers::Contains("segment_size=65536"));
  // "speedup" ends where every row's "N.NNx" ends.
  const std::size_t end = lines[1].find("speedup") + std::string("speedup").size();
  for (std::size_t k = 2; k < lines.size() && lines[k].starts_with("allreduce"); ++k)
    CHECK(lines[k].substr(end - 1, 1) == "x");
}

TEST_CASE("tune: a profile records what the library's default ran at each size (issue 50)") {
  std::vector<CaseResult> cases = sweep();
  // The default's cases say what ran (selection.actual). At 64 KiB two of three
  // launches name functions no catalogue entry has (not counted); at 1 MiB the
  // launches disagree and the most frequent is recorded.
  const std::map<std::uint64_t, std::vector<std::string>> ran{
      {8, {"recursive_doubling"}}, {65536, {"", "", "rabenseifner"}}, {1048576, {"ring", "rabenseifner", "ring"}}};
  std::vector<CaseResult> with_actual;
  for (CaseResult c : cases) {
    if (c.c.algorithm != "default") {
      with_actual.push_back(c);
      continue;
    }
    int launch = 0;
    for (const std::string& algorithm : ran.at(c.c.bytes)) {
      c.launch = launch++;
      c.selection = SelectionOutcome{};
      c.selection->actual = ActualSelection{algorithm, {"ompi_coll_base_allreduce_intra_x"}, "interposer", ""};
      with_actual.push_back(c);
    }
  }
  const TunedProfile p = profile_from_analysis(analyse_reports({report_of(with_actual)}, {}), {});
  const auto& r = p.rules.at(0).ranges;
  REQUIRE(r.size() == 3);
  REQUIRE(r[1].default_ran.size() == 1);  // the default range: 64 KiB
  CHECK(r[1].default_ran[0].bytes == 65536);
  CHECK(r[1].default_ran[0].algorithm == "rabenseifner");
  CHECK(r[1].algorithm_at(65536) == "rabenseifner");
  CHECK(r[1].algorithm_at(r[1].min_bytes) == "rabenseifner");  // the whole range: one measured size
  REQUIRE(r[2].default_ran.size() == 1);  // recorded beside a chosen algorithm too
  CHECK(r[2].default_ran[0].algorithm == "ring");
  CHECK(r[0].default_ran.at(0).algorithm == "recursive_doubling");
  CHECK_NOTHROW(check_profile(profile_from_json(to_json(p), "p.json"), "p.json"));
  // Without selection.actual nothing is recorded, and "default" stays the library's own choice.
  const TunedProfile bare = profile_from_analysis(analyse_reports({report_of(sweep())}, {}), {});
  CHECK(bare.rules.at(0).ranges.at(1).default_ran.empty());
  CHECK(bare.rules.at(0).ranges.at(1).algorithm_at(65536) == "default");
}

TEST_CASE("tune: undecided where the test kept the default says so, not 'the test chose default' (issue 65)") {
  TuneAnalysis a;
  a.library = {"mpi", "openmpi", "4.1.4"};
  SizeChoice s;
  s.bytes = 8;
  s.fastest = "default";
  s.undecided = true;
  s.considered = "default";
  s.considered_near = 0.68;
  s.near_fastest = 0.68;
  a.keys.push_back({RuleShape{Collective::allreduce, 2, 1, 2}, {s}});
  const std::string text = render_tune_summary(a, {}, pico::kUnlimitedWidth);
  CHECK_THAT(text, !Catch::Matchers::Contains("the test chose default"));
  CHECK_THAT(text, Catch::Matchers::Contains("undecided: default kept (no candidate passed the test, but only 68% of "
                                             "the bootstrap's replicates put the default within 5% of the fastest; 80% "
                                             "decides)"));
  // In 100 columns (the default) the row points to the reason, said once under the table with its count.
  const std::string fitted = render_tune_summary(a, {});
  CHECK_THAT(fitted, Catch::Matchers::Contains("  undecided [1]\n"));
  CHECK_THAT(fitted, Catch::Matchers::Contains("[1] 1 size undecided: default kept (no candidate passed the test"));
  std::size_t at = 0;
  while (at < fitted.size()) {
    const std::size_t end = std::min(fitted.find('\n', at), fitted.size());
    const std::string line = fitted.substr(at, end - at);
    // The definitions above the table are their own lines of at most 100 columns; the table and its notes fit too.
    INFO(line);
    CHECK(line.size() <= pico::kDefaultTableWidth);
    at = end + 1;
  }
}
