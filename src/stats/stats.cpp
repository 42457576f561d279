// SPDX-License-Identifier: BSD-3-Clause
#include "stats/stats.hpp"

#include "support/json_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace pico {

namespace {

// z of the two-sided 95% normal quantile, as used by the order-statistic CI.
constexpr double kZ95 = 1.96;

std::size_t clamp_index(double index, std::size_t n) {
  if (index <= 0.0) return 0;
  const auto last = static_cast<double>(n - 1);
  return static_cast<std::size_t>(std::min(index, last));
}

double mean_of(std::span<const double> xs) {
  double sum = 0.0;
  for (double x : xs) sum += x;
  return sum / static_cast<double>(xs.size());
}

double sample_stddev(std::span<const double> xs, double mean) {
  if (xs.size() < 2) return 0.0;
  double sq = 0.0;
  for (double x : xs) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / static_cast<double>(xs.size() - 1));
}

}  // namespace

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0.0;
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

MedianCi median_ci95_sorted(std::span<const double> sorted) {
  if (sorted.empty()) return {};
  const auto n = static_cast<double>(sorted.size());
  const double half_width = kZ95 * std::sqrt(n) / 2.0;
  const std::size_t lo = clamp_index(std::floor(n / 2.0 - half_width), sorted.size());
  const std::size_t hi = clamp_index(std::ceil(n / 2.0 + half_width), sorted.size());
  return {percentile_sorted(sorted, 50.0), sorted[lo], sorted[hi]};
}

double relative_ci_halfwidth(const MedianCi& ci) {
  const double half = std::max(ci.median - ci.low, ci.high - ci.median);
  if (half <= 0.0) return 0.0;
  // A spread around a zero median cannot be called converged.
  if (ci.median <= 0.0) return std::numeric_limits<double>::infinity();
  return half / ci.median;
}

TimingStats compute_stats(std::span<const double> samples) {
  TimingStats s;
  if (samples.empty()) return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());

  s.iterations = static_cast<std::int64_t>(sorted.size());
  s.min_s = sorted.front();
  s.max_s = sorted.back();
  s.mean_s = mean_of(sorted);
  s.p5_s = percentile_sorted(sorted, 5.0);
  s.p95_s = percentile_sorted(sorted, 95.0);
  s.p99_s = percentile_sorted(sorted, 99.0);
  s.stddev_s = sample_stddev(sorted, s.mean_s);
  s.cv = s.mean_s == 0.0 ? 0.0 : s.stddev_s / s.mean_s;

  const MedianCi ci = median_ci95_sorted(sorted);
  s.median_s = ci.median;
  s.ci95_low_s = ci.low;
  s.ci95_high_s = ci.high;
  return s;
}

nlohmann::json stats_to_json(const TimingStats& s) {
  return {
      {"min_s", s.min_s},
      {"median_s", s.median_s},
      {"mean_s", s.mean_s},
      {"max_s", s.max_s},
      {"p5_s", s.p5_s},
      {"p95_s", s.p95_s},
      {"p99_s", s.p99_s},
      {"stddev_s", s.stddev_s},
      {"cv", s.cv},
      {"ci95_low_s", s.ci95_low_s},
      {"ci95_high_s", s.ci95_high_s},
  };
}

namespace {

// One statistic of a timing record: a number where present. A null (or any
// other value) is named with what was expected, not as nlohmann's "type must
// be number, but is null": a case that was not measured has "timing": null.
double statistic(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return 0.0;
  if (!it->is_number()) {
    std::string value = it->dump();
    // (resize and append, not substr + "...": GCC 12 warns -Warray-bounds, falsely, on
    // the temporary's copy in some include orders, the precompiled headers' among them)
    if (value.size() > 40) {
      value.resize(40);
      value += "...";
    }
    throw std::runtime_error(std::string(key) + " is " + value +
                             ": each statistic of a measured case's timing is a number of seconds (a case not "
                             "measured has \"timing\": null)");
  }
  return it->get<double>();
}

}  // namespace

TimingStats stats_from_json(const nlohmann::json& j) {
  TimingStats s;
  s.min_s = statistic(j, "min_s");
  s.median_s = statistic(j, "median_s");
  s.mean_s = statistic(j, "mean_s");
  s.max_s = statistic(j, "max_s");
  s.p5_s = statistic(j, "p5_s");
  s.p95_s = statistic(j, "p95_s");
  s.p99_s = statistic(j, "p99_s");
  s.stddev_s = statistic(j, "stddev_s");
  s.cv = statistic(j, "cv");
  s.ci95_low_s = statistic(j, "ci95_low_s");
  s.ci95_high_s = statistic(j, "ci95_high_s");
  return s;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

double binomial_upper_tail(std::int64_t k, std::int64_t n, double p) {
  if (k <= 0) return 1;
  if (k > n || p <= 0) return 0;
  if (p >= 1) return 1;
  const auto nd = static_cast<double>(n);
  const double log_p = std::log(p), log_q = std::log1p(-p);
  // Past the mode the terms only fall: once one is e^-40 of the largest, the
  // rest (a falling geometric series) change nothing a double holds.
  double sum = 0, peak = -std::numeric_limits<double>::infinity();
  for (std::int64_t i = k; i <= n; ++i) {
    const auto id = static_cast<double>(i);
    const double log_term =
        std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) + id * log_p + (nd - id) * log_q;
    peak = std::max(peak, log_term);
    if (id > nd * p && log_term < peak - 40) break;
    sum += std::exp(log_term);
  }
  return std::min(1.0, sum);
}

}  // namespace pico
