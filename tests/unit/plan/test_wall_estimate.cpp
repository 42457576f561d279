// SPDX-License-Identifier: BSD-3-Clause
// The wall-time estimate's model: its arithmetic from a pilot's calibration,
// the range holding its point, the uncalibrated range, and the pilot's plan.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <fmt/format.h>

#include "plan/wall_estimate.hpp"

using namespace pico;

namespace {

Case sized(std::uint64_t bytes, const std::string& algorithm = "default") {
  Case c;
  c.bytes = bytes;
  c.count = bytes / 4;
  c.algorithm = algorithm;
  c.case_id = fmt::format("{}-{}", bytes, algorithm);
  return c;
}

// Two launch groups: 8 B, 516 B and 1024 B in the first, 1024 B in the second; blocking, a 0.1 s budget.
Plan two_group_plan() {
  Plan p;
  p.timing.time_budget_s = 0.1;
  p.timing.rounds = 1;
  p.groups.resize(2);
  p.groups[0].cases = {sized(8), sized(516), sized(1024)};
  p.groups[1].cases = {sized(1024)};
  return p;
}

// A pilot that measured 0.1 s a case at 8 B and 0.3 s at 1024 B, and 1 s a launch.
Calibration calibration() {
  Calibration c;
  c.launch_s = 1.0;
  c.pilot_budget_s = 0.1;
  c.wall_s = 1.5;
  c.np = 2;
  c.cases = {PilotCase{.bytes = 8, .case_s = 0.1, .iterations = 10},
             PilotCase{.bytes = 1024, .case_s = 0.3, .iterations = 10}};
  return c;
}

}  // namespace

TEST_CASE("wall estimate: without a pilot, the budgets' range, said uncalibrated", "[plan]") {
  const Plan p = two_group_plan();  // 4 cases of 0.1 s: 0.4 s of timed loops, 2 launches
  const WallEstimate e = estimate_wall(p, nullptr);
  CHECK_FALSE(e.calibrated);
  CHECK(e.low_s == Approx(0.25 * 0.4 + 0.5 * 2));
  CHECK(e.point_s == Approx(0.4 + 1.0 * 2));
  CHECK(e.high_s == Approx(3 * 0.4 + 2.0 * 2));
  CHECK(e.low_s <= e.point_s);
  CHECK(e.point_s <= e.high_s);
  const std::string text = wall_estimate_text(e, nullptr, "local", "");
  CHECK_THAT(text, Catch::Matchers::StartsWith("about 1.1s-5.2s of wall time, uncalibrated (no pilot: --estimate"));
  CHECK_THAT(wall_estimate_text(e, nullptr, "local", "the pilot did not run: no mpirun"),
             Catch::Matchers::Contains("uncalibrated (the pilot did not run: no mpirun)"));
  // A calibration without a case measured calibrates nothing.
  Calibration empty;
  CHECK_FALSE(estimate_wall(p, &empty).calibrated);
}

TEST_CASE("wall estimate: the pilot's case times spread over the plan's sizes, and a launch's cost", "[plan]") {
  const Plan p = two_group_plan();
  const Calibration c = calibration();
  const WallEstimate e = estimate_wall(p, &c);
  REQUIRE(e.calibrated);
  // 8 B: 0.1; 516 B: halfway, 0.2; 1024 B twice: 0.3 each; 2 launches of 1 s. No loop was cut: low = high.
  const double sum = 0.1 + 0.2 + 0.3 + 0.3 + 2 * 1.0;
  CHECK(e.point_s == Approx(sum));
  CHECK(e.low_s == Approx(sum / kLoadSpread));
  CHECK(e.high_s == Approx(sum * kLoadSpread));
  CHECK(e.low_s <= e.point_s);
  CHECK(e.point_s <= e.high_s);
  CHECK(e.case_low_s == Approx(0.1));
  CHECK(e.case_high_s == Approx(0.3));
  CHECK(e.cases == 4);
  CHECK(e.launches == 2);
  // Beyond the pilot's sizes, the nearest one's time.
  Plan wider = p;
  wider.groups[0].cases = {sized(4), sized(1 << 20)};
  wider.groups.resize(1);
  CHECK(estimate_wall(wider, &c).point_s == Approx(0.1 + 0.3 + 1.0));
  const std::string text = wall_estimate_text(e, &c, "local", "");
  CHECK_THAT(text, Catch::Matchers::StartsWith("about 2.2s-3.8s of wall time (2.9s at its middle), from a pilot "
                                               "of 2 of its cases just run on 'local' (one launch of np 2, 1.5s)"));
  CHECK_THAT(text, Catch::Matchers::Contains("1.0s a launch to start and end, 100ms-300ms a case at 8B-1KiB"));
}

TEST_CASE("wall estimate: a loop the pilot's shorter budget cut runs up to the plan's", "[plan]") {
  Plan p;
  p.timing.time_budget_s = 2.0;
  p.timing.max_iterations = 100000;
  p.groups.resize(1);
  p.groups[0].cases = {sized(1 << 20)};
  Calibration c;
  c.pilot_budget_s = kPilotBudgetS;
  c.np = 2;
  // 50 samples in the pilot's 0.25 s: 5 ms a sample.
  c.cases = {PilotCase{.bytes = 1 << 20, .case_s = 1.0, .iterations = 50, .budget_cut = true}};
  const WallEstimate e = estimate_wall(p, &c);
  // low: the pilot's 1 s; high: its loop to the plan's 2 s budget, 1.75 s more.
  CHECK(e.point_s == Approx((1.0 + 2.75) / 2));
  CHECK(e.low_s == Approx(1.0 / kLoadSpread));
  CHECK(e.high_s == Approx(2.75 * kLoadSpread));
  CHECK(e.low_s <= e.point_s);
  CHECK(e.point_s <= e.high_s);
  CHECK_THAT(wall_estimate_text(e, &c, "local", ""),
             Catch::Matchers::Contains("loops cut at the pilot's 250ms budget taken up to the plan's 2.0s"));
  // 200 iterations at 5 ms end the loop at 1 s: 0.75 s more at most.
  p.timing.max_iterations = 200;
  CHECK(estimate_wall(p, &c).point_s == Approx((1.0 + 1.75) / 2));
  // A non-blocking case's overlap loops run to a second budget.
  c.cases[0].nonblocking = true;
  CHECK(estimate_wall(p, &c).point_s == Approx((1.0 + 2.5) / 2));
  // The pilot ran the plan's own budget: nothing to extrapolate.
  c.pilot_budget_s = 2.0;
  CHECK(estimate_wall(p, &c).point_s == Approx(1.0));
}

TEST_CASE("pilot plan: the largest group's cases across its sizes, ends first, pairs where rounds interleave",
          "[plan]") {
  Plan p;
  p.timing.time_budget_s = 2.0;
  p.timing.rounds = 5;
  p.groups.resize(2);
  p.groups[0].cases = {sized(8)};
  p.groups[0].np = 2;
  p.groups[1].np = 4;
  for (std::uint64_t bytes = 8; bytes <= (4u << 20); bytes *= 2)  // 20 sizes, 60 cases
    for (const char* algorithm : {"ring", "rd", "default"}) p.groups[1].cases.push_back(sized(bytes, algorithm));
  const Plan pilot = pilot_plan(p);
  REQUIRE(pilot.groups.size() == 1);
  const LaunchGroup& g = pilot.groups[0];
  CHECK(g.np == 4);
  CHECK(pilot.timing.time_budget_s == Approx(kPilotBudgetS));
  REQUIRE(g.cases.size() == 2 * kPilotSizes);
  CHECK(g.cases[0].bytes == 8);
  CHECK(g.cases[2].bytes == (4u << 20));
  std::set<std::uint64_t> sizes;
  for (std::size_t k = 0; k < g.cases.size(); k += 2) {
    // Each pair: two candidates of one choice.
    CHECK(g.cases[k].bytes == g.cases[k + 1].bytes);
    CHECK(g.cases[k].algorithm != g.cases[k + 1].algorithm);
    sizes.insert(g.cases[k].bytes);
  }
  CHECK(sizes.size() == kPilotSizes);
  CHECK(pilot.cases.size() == g.cases.size());
  // One round each: a case alone, and a budget under the pilot's kept.
  p.timing.rounds = 1;
  p.timing.time_budget_s = 0.05;
  const Plan single = pilot_plan(p);
  CHECK(single.groups[0].cases.size() == kPilotSizes);
  CHECK(single.timing.time_budget_s == Approx(0.05));
  // No case: no group.
  CHECK(pilot_plan(Plan{}).groups.empty());
}
