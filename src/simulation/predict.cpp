// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/predict.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "config/units.hpp"
#include "core/case_result.hpp"
#include "simulation/evaluator_budget.hpp"
#include "simulation/fit.hpp"
#include "support/input_error.hpp"

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
    // Estimated once: each estimate records up to three ranks' schedules.
    if (const std::uint64_t ops = tools ? 0 : estimated_operations(req); ops > kEvaluatorBudgetOperations) {
      beyond.push_back({algorithm, 0,
                        fmt::format("{}, over pico's evaluator's {}: give --loggopsim", operations_text(ops),
                                    format_size(kEvaluatorBudgetBytes))});
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
    pt.regret = by_predicted.front().measured_s / by_measured.front().measured_s - 1;
    pt.same_ranking = std::equal(by_measured.begin(), by_measured.end(), by_predicted.begin(),
                                 [](const auto& a, const auto& b) { return a.algorithm == b.algorithm; });
    if (pt.rows.size() < 2) continue;
    std::vector<double> m, p;
    for (const auto& r : pt.rows) {
      m.push_back(r.measured_s);
      p.push_back(r.predicted_s);
    }
    pt.spearman = spearman(m, p);
    ++s.ranked;
    s.best_matches += pt.measured_best == pt.predicted_best;
    s.near_best += pt.regret <= kNearBest;
    s.ranking_matches += pt.same_ranking;
  }
  // Per collective, in collective order.
  std::map<Collective, std::pair<std::vector<double>, std::vector<double>>> rows;
  std::map<Collective, CollectiveCheck> per;
  for (const CheckedPoint& pt : s.points) {
    CollectiveCheck& c = per[pt.collective];
    c.collective = pt.collective;
    for (const auto& r : pt.rows) {
      rows[pt.collective].first.push_back(r.predicted_s);
      rows[pt.collective].second.push_back(r.measured_s);
    }
    if (pt.rows.size() < 2) continue;
    ++c.ranked;
    c.best_matches += pt.measured_best == pt.predicted_best;
    c.near_best += pt.regret <= kNearBest;
    c.mean_spearman += pt.spearman;
  }
  for (auto& [coll, c] : per) {
    c.error = relative_error(rows[coll].first, rows[coll].second);
    if (c.ranked > 0) c.mean_spearman /= c.ranked;
    s.by_collective.push_back(c);
  }
  return s;
}

namespace {

// Ranks from 1, ties sharing their average rank.
std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> rank(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) rank[order[k]] = (static_cast<double>(i + j) / 2.0) + 1.0;
    i = j + 1;
  }
  return rank;
}

// The file a model's source or a --check argument names: a results
// directory stands for its report.json.
std::string report_file(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (std::filesystem::is_directory(p, ec)) p /= "report.json";
  const auto canonical = std::filesystem::weakly_canonical(p, ec);
  return (ec ? p : canonical).string();
}

// The MPI library the report's cases ran on (each case records it).
std::string library_of(const nlohmann::json& report) {
  for (const nlohmann::json& c : report.value("cases", nlohmann::json::array()))
    if (c.is_object() && c.value("library", "") != "") return c.value("library", "");
  return "";
}

}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) return 0;
  const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
  const double n = static_cast<double>(a.size()), mean = (n + 1) / 2;
  double cov = 0, va = 0, vb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 0;
}

CheckOrigin check_origin(const LogGPModel& model, const std::string& model_path, const nlohmann::json& report,
                         const std::string& report_path) {
  CheckOrigin o;
  o.report_platform = report.value("platform", nlohmann::json::object()).value("name", "");
  o.report_library = library_of(report);
  if (!model.platform.empty() && !o.report_platform.empty() && model.platform != o.report_platform)
    throw InputError(report_path,
                     fmt::format("the report ran on platform '{}', but {} was fitted on '{}'", o.report_platform,
                                 model_path, model.platform),
                     "check a model on runs of the platform it was fitted on; fit one here with pico fit");
  if (!model.library.empty() && !o.report_library.empty() && model.library != o.report_library)
    throw InputError(report_path,
                     fmt::format("the report's cases ran on {}, but {} was fitted on {}", o.report_library,
                                 model_path, model.library),
                     "check a model on runs of the MPI library it was fitted on");
  o.held_out = model.source.empty() || report_file(model.source) != report_file(report_path);
  return o;
}

}  // namespace pico
