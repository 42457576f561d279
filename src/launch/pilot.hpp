// SPDX-License-Identifier: BSD-3-Clause
// The pilot that calibrates the wall-time estimate (plan/wall_estimate.hpp):
// a few of the plan's own cases (pilot_plan) run now on the platform, in one
// launch into a scratch directory removed afterwards, stopped after
// kPilotSeconds whatever is left. Their own pilot, not earlier runs: what a
// case costs beside its budget is the cost of this experiment's calls with
// this library and this many ranks (20 ms a call in MPICH's sweep, 0.03 ms in
// Open MPI's), which no other experiment's history says. Run only when asked
// (--estimate): it starts MPI processes.
#pragma once

#include <optional>
#include <string>

#include "config/platform.hpp"
#include "plan/plan.hpp"
#include "plan/wall_estimate.hpp"

namespace pico {

// The pilot's launch is stopped this long after it started (mpirun's start included).
inline constexpr double kPilotSeconds = 10.0;

struct PilotOutcome {
  std::optional<Calibration> calibration;
  std::string why_not;  // without a calibration: why ("the pilot did not run: ...")
};

// Never throws for what the platform does: a launcher that cannot start, a
// worker that fails, a Slurm platform (the pilot would be a job of its own)
// each leave the estimate uncalibrated, with the reason. `say`: a line on
// stderr before it starts MPI processes.
PilotOutcome run_pilot(const Plan& plan, const Platform& platform, const PlanTarget& target, bool say = true);

}  // namespace pico
