// SPDX-License-Identifier: BSD-3-Clause
// Fits a LogGP model to a report (pico fit); docs/simulation.md says why each step.
//
// 1. Point to point: the report's measured sendrecv cases (every rank sends n
//    bytes to its right neighbour and receives n from its left at once),
//    which LogGOPSim times at 2o + max(L, (n-1)O) + (n-1)max(G, O): one line
//    over every size (the model's top-level L + 2o and G) and size bands
//    where one line does not fit (size_bands.hpp).
// 2. S: the library's eager limit less one (asked of it, or given), else
//    where the sendrecv times jump between bands, else unbounded.
// 3. A scale on every band's L + 2o, o, O, the exchange factor and the
//    reduction cost, from the report's measured reference-algorithm cases
//    simulated in LogGOPSim and the sendrecv points, by Gauss-Newton:
//    derivatives by finite differences of the simulated times, 5x5 normal
//    equations solved by Gaussian elimination (hand-written, no linear
//    algebra library on the machine), a step kept only when the error falls
//    (halved up to three times).
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
  int iterations = 6;                       // Gauss-Newton iterations at most
  // The library's eager limit in bytes (S = it - 1); absent: asked of the
  // library when ask_library (size_bands.hpp), else where the sendrecv times jump.
  std::optional<std::uint64_t> eager_limit;
  bool ask_library = true;
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
