// SPDX-License-Identifier: BSD-3-Clause
// Runs a plan's launch groups on a platform inside a results directory:
// starts the worker, follows progress, kills a case that hangs past its
// timeout, records the case in flight as failed when the worker dies, and
// relaunches the rest of the group so one bad case never costs a sweep.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/platform.hpp"
#include "launch/progress.hpp"  // Clock
#include "plan/plan.hpp"

namespace pico {

// When a launch's events came, seconds from its start (the pilot's
// calibration, launch/pilot.hpp: a launch's own cost and that between cases).
struct LaunchTimes {
  double first_start_s = -1;                              // the first case (or round) started; -1: none did
  std::vector<std::pair<std::string, double>> results_s;  // each result line read (case_id, when), in order
  double wall_s = 0;                                      // the launcher exited
  bool stopped = false;                                   // killed at ExecutorOptions::stop_at
};

struct ExecutionLog {
  int launches = 0;  // the next launch number: launches in the directory, earlier runs' included
  nlohmann::json launch_log = nlohmann::json::array();       // one object per launch
  nlohmann::json launch_commands = nlohmann::json::array();  // argv of each launch
  std::vector<LaunchTimes> times;                            // one per launch, as launch_log
};

struct ExecutorOptions {
  double startup_timeout_s = 120;  // from launch to the first case starting
  double finalize_timeout_s = 60;  // from the last case's result to the worker's exit
  bool progress = true;            // progress line on stderr
  int first_launch = 0;            // launches already in the directory (a resumed run numbers on)
  // The pilot's bound: the launch in flight is stopped then, and the cases left are recorded not run.
  std::optional<Clock::time_point> stop_at{};
};

ExecutionLog execute_plan(const Plan& plan, const Platform& platform, const PlanTarget& target, const std::string& dir,
                          const ExecutorOptions& options);

// "rank 0 exited on signal 11 (Segmentation fault)" from an mpirun log, or "".
std::string crash_detail_from_log(const std::string& log_text);

}  // namespace pico
