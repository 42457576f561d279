// SPDX-License-Identifier: BSD-3-Clause
// How long a run of a plan takes on the wall clock, before it runs: the one
// model of it (docs/benchmarks.md#run-time-estimate-against-actual). A case's
// time budget bounds its timed loop only: a loop may stop at target_ci long
// before it (the quickstart: 0.28x its budgets), and around it come the
// warm-up, a barrier per sample, the samples' reduction, each round's set-up
// and validation, which cost as much as the calls (MPICH's sweep with 4 ranks
// on 2 cores: 16.5x its budgets). Neither is known from the experiment, so
// the estimate rests on a pilot: a few of the plan's own cases run on this
// platform (launch/pilot.hpp), their times spread over the plan's cases by
// message size. Without one it is the budgets' range, said to be uncalibrated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "plan/plan.hpp"

namespace pico {

// One case the pilot measured.
struct PilotCase {
  std::string backend = "mpi";
  std::uint64_t bytes = 0;
  double case_s = 0;            // its elapsed_s (every round) and its share of the launch's time between cases
  std::int64_t iterations = 0;  // timed samples, every round's
  // Its loop may have run to the pilot's time budget, shorter than the plan's: the plan's case may run longer.
  bool budget_cut = false;
  bool nonblocking = false;  // its overlap loops run to a second budget
};

// What the pilot measured on this platform: the model's parameters.
struct Calibration {
  double launch_s = 0;        // a launch's start (mpirun to the first case) and end, outside its cases
  double pilot_budget_s = 0;  // the time_budget its cases ran with (the plan's, or less: kPilotBudgetS)
  double wall_s = 0;          // the pilot's launch, start to end
  int np = 0;                 // its processes
  int scaled = 0;             // cases stopped between their rounds, scaled to all of them
  std::vector<PilotCase> cases;
};

// The estimate, seconds of wall time: low <= point <= high.
struct WallEstimate {
  double low_s = 0, point_s = 0, high_s = 0;
  bool calibrated = false;
  // What a case took at the pilot's sizes, the plan's budget applied (calibrated only).
  double case_low_s = 0, case_high_s = 0;
  std::size_t cases = 0, launches = 0;
  double budget_s = 0;  // the plan's time_budget
};

// A pilot case's time budget at most: a longer budget is extrapolated (estimate_wall).
inline constexpr double kPilotBudgetS = 0.25;
// Sizes (strata of the plan's cases by message size) the pilot measures at most, a case or a pair of one each.
inline constexpr std::size_t kPilotSizes = 12;

// The plan the pilot runs: from the plan's largest launch group, the cases at
// kPilotSizes quantiles of its message sizes, shared among its backends and
// taken from each in turn (the smallest and the largest first: a pilot
// stopped early still spans them), with a second candidate of
// the same choice where the plan interleaves its candidates in rounds (a
// candidate alone is measured in one go, the rounds' set-up never paid);
// time_budget at most kPilotBudgetS. One group: the pilot is one launch.
Plan pilot_plan(const Plan& plan);

// Without `calibration` (nullptr): the budgets' range, a quarter of the timed
// loops to 3x them (what the examples took, docs/benchmarks.md) and 0.5-2 s a
// launch. With it: each runnable case's time interpolated in message size
// between the pilot's sizes of its backend (of any, where the pilot measured
// none of it; linear in bytes, constant beyond them), a
// budget-cut loop taken between its pilot time and its plan budget (or
// max_iterations at the pilot's per-sample time, if less), plus a launch's
// cost per launch group; the range widened by kLoadSpread either way, what the
// load of a shared machine moved these runs by.
WallEstimate estimate_wall(const Plan& plan, const Calibration* calibration);
inline constexpr double kLoadSpread = 1.3;

// "about 55s-2m10s of wall time (1m20s at its middle), from a pilot of 8 of its cases just run on 'local' (...)";
// uncalibrated: "about 8.0s-1m40s of wall time, uncalibrated (WHY): ...". `why_uncalibrated`: why no pilot ran.
std::string wall_estimate_text(const WallEstimate& e, const Calibration* calibration, const std::string& platform,
                               const std::string& why_uncalibrated);

}  // namespace pico
