// SPDX-License-Identifier: BSD-3-Clause
// Statistics of a case's per-iteration times (each sample is the slowest rank's time).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct TimingStats {
  std::int64_t iterations = 0;
  double min_s = 0, median_s = 0, mean_s = 0, max_s = 0;
  double p5_s = 0, p95_s = 0, p99_s = 0;
  double stddev_s = 0;     // sample standard deviation (n-1)
  double cv = 0;           // stddev / mean
  double ci95_low_s = 0;   // distribution-free 95% confidence interval of the median
  double ci95_high_s = 0;
};

// Linear interpolation between closest ranks (numpy's default), p in [0,100]; sorted input.
double percentile_sorted(std::span<const double> sorted, double p);

struct MedianCi {
  double median = 0, low = 0, high = 0;
};
// Order-statistic CI of the median: ranks n/2 -+ 1.96 sqrt(n)/2 (normal
// approximation to the binomial), clamped to the sample. Sorted input.
MedianCi median_ci95_sorted(std::span<const double> sorted);

// The median of v (the mean of the middle two for an even count); 0 for none.
double median_of(std::vector<double> v);

// Half-width of the CI relative to the median: max(median-low, high-median)/median.
double relative_ci_halfwidth(const MedianCi& ci);

// P(X >= k) for X ~ Binomial(n, p): the chance of k or more successes in n
// independent trials of chance p each, summed in log space (exact to double
// rounding for any n pico meets; written here, there is no such function in
// the standard library and Boost.Math is not a dependency). 1 for k <= 0.
double binomial_upper_tail(std::int64_t k, std::int64_t n, double p);

// Copies and sorts internally; samples may be in any order. Empty input gives zeros.
TimingStats compute_stats(std::span<const double> samples);

// `iterations` is not part of the object: the case record carries it.
nlohmann::json stats_to_json(const TimingStats& s);
// Inverse of stats_to_json; absent keys read as 0 (reports of older runs).
TimingStats stats_from_json(const nlohmann::json& j);

}  // namespace pico
