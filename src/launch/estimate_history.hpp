// SPDX-License-Identifier: BSD-3-Clause
// How long a run will take, from what pico took on this platform before: the
// plan's timed loops (plan_duration_text) say what the cases measure, not
// what launching, warming up, validating and writing cost, which was 3-6x
// the loops on these machines. Earlier runs' reports under the same results
// base say both: each gives a ratio of its cases' time to their budgets and
// an overhead per launch, and the new plan's estimate is stated as the range
// those give. Runs of the same experiment are preferred: another
// experiment's ratio misleads (the quickstart's loops stop at target_ci, 0.2x
// their budgets; a sweep's 4 ranks on 2 cores run to theirs and past, 1.3x).
#pragma once

#include <optional>
#include <string>

#include "plan/plan.hpp"

namespace pico {

struct HistoryEstimate {
  int runs = 0;                  // earlier runs it rests on
  bool same_experiment = false;  // all of them runs of the plan's experiment (by name)
  double low_s = 0, high_s = 0;  // the plan's wall time by the least and the most costly of them
  double loops_ratio_low = 0, loops_ratio_high = 0;  // their cases' time over their time budgets
  double launch_s_low = 0, launch_s_high = 0;        // their wall time outside cases, per launch
};

// From the newest few finished runs in `results_base`/`platform`/ (report.json
// with cases and a launch log): those of the experiment named `experiment`
// among the newest twenty where there are any, else the newest of any
// experiment; nullopt where there are none. Unreadable or foreign directories
// there are passed over: history informs, it never fails.
std::optional<HistoryEstimate> estimate_from_history(const Plan& plan, const std::string& results_base,
                                                     const std::string& platform, const std::string& experiment = "");

// "expect 2m10s-3m20s of wall time, from 3 earlier run(s) of 'sweep' on 'local' under results (their cases
// took 1.9-3.1x ...)", "... run(s) of other experiments on 'local' ..." where none is of this one; "" without
// history.
std::string history_estimate_text(const Plan& plan, const std::string& results_base, const std::string& platform,
                                  const std::string& experiment = "");

}  // namespace pico
