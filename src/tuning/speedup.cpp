// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/speedup.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>

namespace pico {

namespace {

constexpr int kBootstrapRounds = 400;

double objective_percent(Objective o) { return o == Objective::median ? 50.0 : 95.0; }

// Percentile with linear interpolation between closest ranks (as
// percentile_sorted), by selection: the bootstrap cannot afford a sort.
double percentile_unsorted(std::vector<double>& v, double p) {
  const double pos = p / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return a + (b - a) * (pos - static_cast<double>(lo));
}

bool all_have_samples(const std::vector<Observation>& obs) {
  return !obs.empty() && std::all_of(obs.begin(), obs.end(), [](const Observation& o) {
    return o.samples_s && !o.samples_s->empty();
  });
}

double value_of(const Observation& o, Objective objective) {
  return objective == Objective::median ? o.stats.median_s : o.stats.p95_s;
}

double median_of(std::vector<double> v) { return percentile_unsorted(v, 50.0); }

// One bootstrap replicate of a side: launches drawn with replacement, then
// each drawn launch's samples drawn with replacement, pooled.
double resampled_objective(const std::vector<Observation>& obs, Objective objective, std::mt19937_64& rng,
                           std::vector<double>& pool) {
  pool.clear();
  std::uniform_int_distribution<std::size_t> pick_launch(0, obs.size() - 1);
  for (std::size_t l = 0; l < obs.size(); ++l) {
    const std::vector<double>& s = *obs[pick_launch(rng)].samples_s;
    std::uniform_int_distribution<std::size_t> pick_sample(0, s.size() - 1);
    for (std::size_t i = 0; i < s.size(); ++i) pool.push_back(s[pick_sample(rng)]);
  }
  return percentile_unsorted(pool, objective_percent(objective));
}

MeasuredSpeedup bootstrap(const std::vector<Observation>& base, const std::vector<Observation>& cand,
                          Objective objective) {
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
  for (const auto* side : {&base, &cand})
    for (const Observation& o : *side) seed = seed * 1099511628211ULL + o.samples_s->size();
  std::mt19937_64 rng(seed);
  std::vector<double> ratios, pool;
  ratios.reserve(kBootstrapRounds);
  for (int r = 0; r < kBootstrapRounds; ++r) {
    const double b = resampled_objective(base, objective, rng, pool);
    const double c = resampled_objective(cand, objective, rng, pool);
    if (c > 0) ratios.push_back(b / c);
  }
  MeasuredSpeedup s;
  const double c = objective_time(cand, objective);
  s.estimate = c > 0 ? objective_time(base, objective) / c : 0;
  std::sort(ratios.begin(), ratios.end());
  s.low = percentile_sorted(ratios, 2.5);
  s.high = percentile_sorted(ratios, 97.5);
  // The pooled estimate can fall just outside the percentile interval of a
  // skewed bootstrap distribution; the interval always holds the estimate.
  s.low = std::min(s.low, s.estimate);
  s.high = std::max(s.high, s.estimate);
  s.method = base.size() > 1 || cand.size() > 1 ? "bootstrap over launches and samples" : "bootstrap over samples";
  return s;
}

// Without samples: each launch's value and (for the median) its 95% CI; the
// interval is the envelope over all pairs of launches, so a launch that ran
// slow or fast widens it.
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

}  // namespace

std::string_view name(Objective o) { return o == Objective::median ? "median" : "p95"; }

std::optional<Objective> parse_objective(std::string_view s) {
  if (s == "median") return Objective::median;
  if (s == "p95") return Objective::p95;
  return std::nullopt;
}

double objective_time(const std::vector<Observation>& obs, Objective objective) {
  if (obs.empty()) return 0;
  if (all_have_samples(obs)) {
    std::vector<double> pool;
    for (const Observation& o : obs) pool.insert(pool.end(), o.samples_s->begin(), o.samples_s->end());
    return percentile_unsorted(pool, objective_percent(objective));
  }
  std::vector<double> values;
  for (const Observation& o : obs) values.push_back(value_of(o, objective));
  return median_of(std::move(values));
}

MeasuredSpeedup speedup_of(const std::vector<Observation>& baseline, const std::vector<Observation>& candidate,
                           Objective objective) {
  if (baseline.empty() || candidate.empty()) return {0, 0, 0, "none: no measurement"};
  if (all_have_samples(baseline) && all_have_samples(candidate)) return bootstrap(baseline, candidate, objective);
  return envelope(baseline, candidate, objective);
}

int launch_count(const std::vector<Observation>& obs) {
  std::set<std::pair<std::string, int>> launches;
  for (const Observation& o : obs) launches.insert({o.report_id, o.launch});
  return static_cast<int>(launches.size());
}

}  // namespace pico
