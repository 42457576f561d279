// SPDX-License-Identifier: BSD-3-Clause
#include "core/speedup.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace pico {

namespace {

// Without samples or rounds: each launch's value and (for the median) its 95%
// CI; the interval is the envelope over all pairs of launches, so a launch
// that ran slow or fast widens it.
MeasuredSpeedup envelope(const std::vector<Observation>& base, const std::vector<Observation>& cand,
                         Objective objective) {
  MeasuredSpeedup s;
  const double c = objective_time(cand, objective);
  s.estimate = c > 0 ? objective_time(base, objective) / c : 0;
  const bool median = objective == Objective::median;
  if (!median && (base.size() < 2 || cand.size() < 2)) {
    s.method = "none: a p95 interval needs samples_s (timing.keep_samples) or repeated launches";
    return s;
  }
  auto low_of = [&](const Observation& o) { return median ? o.stats.ci95_low_s : o.stats.p95_s; };
  auto high_of = [&](const Observation& o) { return median ? o.stats.ci95_high_s : o.stats.p95_s; };
  double base_low = low_of(base[0]), base_high = high_of(base[0]), cand_low = low_of(cand[0]), cand_high = high_of(cand[0]);
  for (const Observation& o : base) base_low = std::min(base_low, low_of(o)), base_high = std::max(base_high, high_of(o));
  for (const Observation& o : cand) cand_low = std::min(cand_low, low_of(o)), cand_high = std::max(cand_high, high_of(o));
  if (cand_high <= 0 || cand_low <= 0) {
    s.method = "none: a candidate time of 0";
    return s;
  }
  s.low = base_low / cand_high;
  s.high = base_high / cand_low;
  s.method = median ? "envelope of the medians' 95% intervals over launches" : "envelope of the launches' p95";
  return s;
}

// The estimate inside its interval, always: a percentile bootstrap of a
// skewed statistic can leave it just outside, and an envelope over several
// launches is of their intervals while the estimate pools them (issue 65:
// tune --check printed "1.59 [1.17,1.57]"). The interval widens to it.
MeasuredSpeedup holding_estimate(MeasuredSpeedup s) {
  if (s.has_interval()) s.low = std::min(s.low, s.estimate), s.high = std::max(s.high, s.estimate);
  return s;
}

}  // namespace

std::string_view MeasuredSpeedup::verdict() const {
  if (!has_interval()) return "undecided";
  return low > 1 ? "faster" : high < 1 ? "slower" : "undecided";
}

MeasuredSpeedup speedup_of(const std::vector<Observation>& baseline, const std::vector<Observation>& candidate,
                           Objective objective) {
  if (baseline.empty() || candidate.empty()) return {0, 0, 0, "none: no measurement"};
  if (const auto boot = bootstrap_speedup(baseline, candidate, objective))
    return holding_estimate({boot->estimate, boot->low, boot->high, boot->method});
  return holding_estimate(envelope(baseline, candidate, objective));
}

std::size_t fastest_of(const std::vector<const std::vector<Observation>*>& candidates, Objective objective) {
  std::size_t best = std::string::npos;
  double best_time = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i] == nullptr || candidates[i]->empty()) continue;
    const double t = objective_time(*candidates[i], objective);
    if (best == std::string::npos || t < best_time) best = i, best_time = t;
  }
  return best;
}

std::string speedup_figure(double v) {
  if (!std::isfinite(v) || v == 0 || std::abs(v) >= 0.1) return fmt::format("{:.3f}", v);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(v))));
  return fmt::format("{:.{}f}", v, std::min(2 - magnitude, 17));
}

std::string speedup_estimate_text(const MeasuredSpeedup& s) { return speedup_figure(s.estimate) + "x"; }

std::string speedup_interval_text(const MeasuredSpeedup& s) {
  return s.has_interval() ? fmt::format("[{}, {}]", speedup_figure(s.low), speedup_figure(s.high)) : std::string("none");
}

int launch_count(const std::vector<Observation>& obs) {
  std::set<std::pair<std::string, int>> launches;
  for (const Observation& o : obs) launches.insert({o.report_id, o.launch});
  return static_cast<int>(launches.size());
}

}  // namespace pico
