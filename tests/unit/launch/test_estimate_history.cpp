// SPDX-License-Identifier: BSD-3-Clause
// A run's wall time from what earlier runs on the platform took: each a ratio
// of its cases' time to their budgets and an overhead per launch.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "launch/estimate_history.hpp"

using namespace pico;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / fs::path("pico-history-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

// A finished run of experiment `name`: `cases` cases of `elapsed` s each at a 0.1 s budget, in `launches`
// launches, `wall` s in all, and `skipped` cases skipped at plan time.
void write_run(const fs::path& dir, int cases, double elapsed, int launches, double wall,
               const std::string& name = "exp", int skipped = 0) {
  fs::create_directories(dir);
  nlohmann::json r = {{"schema", "pico-report/1"},
                      {"experiment", {{"name", name}, {"parsed", {{"timing", {{"time_budget_s", 0.1}}}}}}},
                      {"run", {{"wall_s", wall}, {"launches", launches}, {"interrupted", false}}},
                      {"cases", nlohmann::json::array()}};
  for (int i = 0; i < cases; ++i) r["cases"].push_back({{"status", "ok"}, {"elapsed_s", elapsed}});
  for (int i = 0; i < skipped; ++i) r["cases"].push_back({{"status", "skipped"}, {"elapsed_s", 0.0}});
  std::ofstream(dir / "report.json") << r.dump();
}

// 40 blocking cases at a 0.1 s budget (4 s of timed loops) in 2 launches.
Plan forty_case_plan() {
  Plan p;
  p.timing.time_budget_s = 0.1;
  p.groups.resize(2);
  for (auto& g : p.groups) g.cases.resize(20);
  return p;
}

}  // namespace

TEST_CASE("history estimate: the range the platform's earlier runs give", "[launch]") {
  TempDir tmp;
  // 100 cases of 0.2 s (2x their 10 s of budgets) in 1 launch of 25 s: 5 s per launch besides.
  write_run(tmp.path / "local" / "a", 100, 0.2, 1, 25);
  // 50 cases of 0.3 s (3x) in 2 launches of 19 s: 2 s per launch besides.
  write_run(tmp.path / "local" / "b", 50, 0.3, 2, 19);
  // Not history: another platform's, an interrupted one, a foreign file, a run of under a second of loops.
  write_run(tmp.path / "other" / "c", 100, 9.0, 1, 1000);
  fs::create_directories(tmp.path / "local" / "d");
  std::ofstream(tmp.path / "local" / "d" / "report.json") << "{not json";
  write_run(tmp.path / "local" / "e", 2, 0.1, 1, 50);
  const auto e = estimate_from_history(forty_case_plan(), tmp.path.string(), "local");
  REQUIRE(e);
  CHECK(e->runs == 2);
  // a: 2 x 4 s + 2 x 5 s = 18 s; b: 3 x 4 s + 2 x 2 s = 16 s.
  CHECK(e->low_s == Approx(16));
  CHECK(e->high_s == Approx(18));
  CHECK(e->loops_ratio_low == Approx(2));
  CHECK(e->loops_ratio_high == Approx(3));
  const std::string text = history_estimate_text(forty_case_plan(), tmp.path.string(), "local");
  CHECK_THAT(text, Catch::Matchers::StartsWith("expect 16s-18s of wall time, from 2 earlier run(s) on 'local'"));
  CHECK_THAT(text, Catch::Matchers::Contains("2.0-3.0x their time budgets"));
}

TEST_CASE("history estimate: runs of the same experiment first, others only where there are none", "[launch]") {
  TempDir tmp;
  // The quickstart's loops stop at target_ci (0.2x their budgets), a sweep's run past them (1.5x): the
  // quickstart's ratio made a sweep's estimate 5.7x short (issue 65).
  write_run(tmp.path / "local" / "q", 100, 0.02, 1, 3, "quickstart");  // 0.2x, 1 s per launch
  // 1.5x, 1 s per launch: the 20 cases skipped at plan time spent no budget (counted, they made it 1.25x).
  write_run(tmp.path / "local" / "s", 100, 0.15, 1, 16, "sweep", 20);
  const auto sweep = estimate_from_history(forty_case_plan(), tmp.path.string(), "local", "sweep");
  REQUIRE(sweep);
  CHECK(sweep->runs == 1);
  CHECK(sweep->same_experiment);
  CHECK(sweep->loops_ratio_low == Approx(1.5));
  CHECK(sweep->low_s == Approx(1.5 * 4 + 2 * 1));
  CHECK_THAT(history_estimate_text(forty_case_plan(), tmp.path.string(), "local", "sweep"),
             Catch::Matchers::StartsWith("expect 8.0s of wall time, from 1 earlier run(s) of 'sweep' on 'local'"));
  // An experiment not run before: every run, said as others'.
  const auto fresh = estimate_from_history(forty_case_plan(), tmp.path.string(), "local", "fresh");
  REQUIRE(fresh);
  CHECK(fresh->runs == 2);
  CHECK_FALSE(fresh->same_experiment);
  CHECK(fresh->loops_ratio_low == Approx(0.2));
  CHECK(fresh->loops_ratio_high == Approx(1.5));
  CHECK_THAT(history_estimate_text(forty_case_plan(), tmp.path.string(), "local", "fresh"),
             Catch::Matchers::Contains("from 2 earlier run(s) of other experiments on 'local'"));
  // No name asked for: every run, as before.
  CHECK(estimate_from_history(forty_case_plan(), tmp.path.string(), "local")->runs == 2);
}

TEST_CASE("history estimate: none without earlier runs, and no error for a base that is not there", "[launch]") {
  TempDir tmp;
  CHECK_FALSE(estimate_from_history(forty_case_plan(), (tmp.path / "absent").string(), "local"));
  CHECK(history_estimate_text(forty_case_plan(), tmp.path.string(), "local").empty());
}
