// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/predict.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "config/units.hpp"
#include "core/case_result.hpp"
#include "core/input_error.hpp"
#include "simulation/evaluator_budget.hpp"
#include "simulation/fit.hpp"

namespace pico {

std::vector<AlgorithmPrediction> predict_algorithms(const std::optional<LogGOPSimTools>& tools, Collective c, std::uint64_t bytes,
                                                    int np, Dtype dtype, std::uint64_t segment_bytes,
                                                    const LogGPParams& p, int threads) {
  std::vector<MeasuredSchedule> schedules;
  std::vector<AlgorithmPrediction> beyond;
  for (const std::string& algorithm : reference_algorithm_names(c)) {
    reference::ScheduleRequest req;
    req.collective = c;
    req.algorithm = algorithm;
    req.np = np;
    req.dtype = dtype;
    req.count = dtype == Dtype::none ? 0 : bytes / dtype_size(dtype);
    const auto* traits = reference_algorithm_traits(c, algorithm);
    req.segment_bytes = traits && traits->segmented ? segment_bytes : 0;
    if (!tools && evaluator_bytes(req) > kEvaluatorBudgetBytes) {
      beyond.push_back({algorithm, 0,
                        fmt::format("about {} million operations, over pico's evaluator's {}: give --loggopsim",
                                    estimated_operations(req) / 1000000, format_size(kEvaluatorBudgetBytes))});
      continue;
    }
    schedules.push_back({req, 0, algorithm});
  }
  const std::vector<double> t = simulate_all(tools, schedules, p, threads);
  std::vector<AlgorithmPrediction> out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push_back({schedules[i].request.algorithm, t[i], {}});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  out.insert(out.end(), beyond.begin(), beyond.end());
  return out;
}

CheckSummary check_report(const std::optional<LogGOPSimTools>& tools, const nlohmann::json& report, const std::string& report_path,
                          const LogGPParams& p, int threads) {
  const std::vector<MeasuredSchedule> refs = reference_cases(case_results_of(report));
  if (refs.empty())
    throw InputError(report_path, "the report has no measured cases of pico's reference algorithms",
                     "measure some: pico run configs/examples/fit.yaml");
  const std::vector<double> predicted = simulate_all(tools, refs, p, threads);
  CheckSummary s;
  std::vector<double> measured;
  std::map<std::tuple<Collective, int, std::uint64_t>, std::size_t> index;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const auto& req = refs[i].request;
    const std::uint64_t bytes = req.count * (req.dtype == Dtype::none ? 0 : dtype_size(req.dtype));
    const auto key = std::tuple{req.collective, req.np, bytes};
    auto [it, fresh] = index.try_emplace(key, s.points.size());
    if (fresh) {
      CheckedPoint pt;
      pt.collective = req.collective;
      pt.np = req.np;
      pt.bytes = bytes;
      s.points.push_back(std::move(pt));
    }
    s.points[it->second].rows.push_back({req.algorithm, refs[i].measured_s, predicted[i]});
    measured.push_back(refs[i].measured_s);
  }
  s.error = relative_error(predicted, measured);
  for (CheckedPoint& pt : s.points) {
    auto by_measured = pt.rows;
    std::stable_sort(by_measured.begin(), by_measured.end(),
                     [](const auto& a, const auto& b) { return a.measured_s < b.measured_s; });
    auto by_predicted = pt.rows;
    std::stable_sort(by_predicted.begin(), by_predicted.end(),
                     [](const auto& a, const auto& b) { return a.predicted_s < b.predicted_s; });
    pt.rows = by_measured;
    pt.measured_best = by_measured.front().algorithm;
    pt.predicted_best = by_predicted.front().algorithm;
    pt.same_ranking = std::equal(by_measured.begin(), by_measured.end(), by_predicted.begin(),
                                 [](const auto& a, const auto& b) { return a.algorithm == b.algorithm; });
    if (pt.rows.size() < 2) continue;
    ++s.ranked;
    s.best_matches += pt.measured_best == pt.predicted_best;
    s.ranking_matches += pt.same_ranking;
  }
  return s;
}

}  // namespace pico
