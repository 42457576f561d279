// SPDX-License-Identifier: BSD-3-Clause
// Fits a LogGP model to a report (pico fit).
//
// Point to point: the report's measured sendrecv cases (every rank sends n
// bytes to its right neighbour and receives n from its left at once), which
// LogGOPSim times at exactly L + 2o + (n-1)G (eager): a straight line in n,
// fitted by least squares on relative error (weights 1/measured^2, closed
// form), gives G (slope) and a = L + 2o - G (intercept).
//
// Then L + 2o, o and the reduction cost together: the report's measured
// reference-algorithm cases are simulated in LogGOPSim, and the three are
// fitted to the relative errors of those cases and of the sendrecv points
// (L = (L + 2o) - 2o) by Gauss-Newton: derivatives by finite differences of
// the simulated times, 3x3 normal equations solved by Gaussian elimination
// (hand-written, no linear algebra library on the machine), a step kept only
// when the error falls (halved up to three times). g and O stay 0, S is
// unbounded (every message eager): the fit absorbs what they would add.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/reference/recording.hpp"
#include "core/case_result.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/loggp_model.hpp"

namespace pico {

// One measured case a model can be compared with: a reference algorithm's
// schedule and its median time.
struct MeasuredSchedule {
  reference::ScheduleRequest request;
  double measured_s = 0;
  std::string label;  // "allreduce ring 1MiB np=4"
};

// The report's measured cases of pico's reference algorithms, as schedules.
std::vector<MeasuredSchedule> reference_cases(const std::vector<CaseResult>& cases);

// The schedule request a case describes (its segment_size parameter included).
reference::ScheduleRequest request_of(const Case& c);

struct FitOptions {
  std::optional<LogGOPSimTools> simulator;  // absent: pico's LogGP evaluator simulates (noted)
  double reduce_ps_per_byte = 250;          // used when it cannot be fitted
  int threads = 0;                          // simulations at once (0: one per hardware thread)
};

struct FitOutcome {
  LogGPModel model;
  std::vector<std::string> notes;  // what could not be fitted, and why
};

// Throws InputError (where = the report) when it holds fewer than two sizes of
// measured sendrecv cases.
FitOutcome fit_model(const nlohmann::json& report, const std::string& report_path, const FitOptions& options);

// Simulated times (s) of the schedules under `p`, in order, `threads` at a
// time: in LogGOPSim, or by pico's LogGP evaluator (loggp_evaluator.hpp)
// when `tools` is empty.
std::vector<double> simulate_all(const std::optional<LogGOPSimTools>& tools, const std::vector<MeasuredSchedule>& cases,
                                 const LogGPParams& p, int threads);

// median and max |predicted / measured - 1|.
FitError relative_error(const std::vector<double>& predicted, const std::vector<double>& measured);

}  // namespace pico
