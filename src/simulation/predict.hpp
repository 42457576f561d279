// SPDX-License-Identifier: BSD-3-Clause
// Predictions from a LogGP model: each reference algorithm's time for a
// collective, size and process count, simulated in LogGOPSim (pico predict),
// and the model checked against a report's measurements (pico predict --check).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/loggp_model.hpp"

namespace pico {

struct AlgorithmPrediction {
  std::string algorithm;
  double seconds = 0;
  std::string not_evaluated;  // why it has no time (its schedule is beyond pico's evaluator), else empty
};

// Every reference algorithm of `c` at `bytes` per rank on `np` ranks,
// fastest first, simulated in LogGOPSim (pico's LogGP evaluator when `tools`
// is empty; an algorithm whose schedule is beyond the evaluator's budget,
// simulation/evaluator_budget.hpp, comes last with `not_evaluated` saying
// so). Throws std::runtime_error when LogGOPSim fails.
std::vector<AlgorithmPrediction> predict_algorithms(const std::optional<LogGOPSimTools>& tools, Collective c, std::uint64_t bytes,
                                                    int np, Dtype dtype, std::uint64_t segment_bytes,
                                                    const LogGPParams& p, int threads);

// One (collective, np, size) of a report: each measured reference algorithm
// with its predicted time, and whether the predicted fastest is the measured fastest.
struct CheckedPoint {
  Collective collective = Collective::allreduce;
  int np = 0;
  std::uint64_t bytes = 0;
  struct Row {
    std::string algorithm;
    double measured_s = 0, predicted_s = 0;
  };
  std::vector<Row> rows;  // fastest measured first
  std::string measured_best, predicted_best;
  bool same_ranking = false;  // the whole order agrees
  double spearman = 0;        // rank correlation of predicted and measured times; 0 with one algorithm
  // What following the prediction costs: the predicted best's measured time
  // over the measured best's, - 1 (0 where they are the same algorithm).
  double regret = 0;
};

// A predicted best whose measured time is within this of the measured best's
// is "near best": where two algorithms are closer than the run-to-run noise,
// which of them measures fastest changes from run to run.
inline constexpr double kNearBest = 0.05;

// One collective's points: the error over its rows, how often the best
// matched, and the mean Spearman correlation over its ranked points.
struct CollectiveCheck {
  Collective collective = Collective::allreduce;
  FitError error;
  int ranked = 0;
  int best_matches = 0;
  int near_best = 0;  // regret at most kNearBest
  double mean_spearman = 0;
};

struct CheckSummary {
  std::vector<CheckedPoint> points;
  FitError error;         // over every row
  int ranked = 0;         // points with two algorithms or more
  int best_matches = 0;   // of those, points whose predicted best is the measured best
  int near_best = 0;      // of those, points whose predicted best measured within kNearBest of the best
  int ranking_matches = 0;
  std::vector<CollectiveCheck> by_collective;  // in collective order
};

// Spearman's rank correlation of two equally long series (ties take their
// average rank): 1 when they order alike, -1 when reversed; 0 for fewer
// than two values or a constant series.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

// Whether a check is held out: the model and the report must come from the
// same platform (its name) and MPI library, else InputError (where = the
// report) says which differs; `held_out` is false when the model was fitted
// from this very report (a fit checked on its own data overstates accuracy).
struct CheckOrigin {
  bool held_out = true;
  std::string report_platform;
  std::string report_library;
};
CheckOrigin check_origin(const LogGPModel& model, const std::string& model_path, const nlohmann::json& report,
                         const std::string& report_path);

// The report's measured reference cases, simulated under the model. Throws
// InputError (where = report_path) when it has none.
CheckSummary check_report(const std::optional<LogGOPSimTools>& tools, const nlohmann::json& report, const std::string& report_path,
                          const LogGPParams& p, int threads);

}  // namespace pico
