// SPDX-License-Identifier: BSD-3-Clause
// The choice of a compression ratio per call from the measured bandwidth and
// a time target, in the spirit of Kimad (Xin et al., "Kimad: Adaptive
// Gradient Compression with Bandwidth Awareness", 2023): the ratio whose
// message would cross the link in the target time at the bandwidth the
// previous calls showed, within bounds. Pure arithmetic, no clock and no MPI,
// so the rule is tested with bandwidths given rather than timed; the
// algorithm that uses it (compression/families/adaptive_topk.cpp) measures.
#pragma once

#include <cstddef>
#include <optional>

namespace pico::compressed {

struct RatioRule {
  double time_target_s = 0.01;  // the communicate phase's wanted duration
  double min_ratio = 0.001;     // bounds on k / n
  double max_ratio = 0.1;
};

// Bytes one rank moves in a call that sends k elements: fixed + per_element * k.
struct WireModel {
  double fixed_bytes = 0;
  double bytes_per_element = 0;
};

// The ratio k / n for n elements whose wire bytes take rule.time_target_s at
// bytes_per_second: (time_target * bandwidth - fixed) / per_element / n,
// clamped to [min_ratio, max_ratio]. Non-decreasing in the bandwidth.
double choose_ratio(const RatioRule& rule, double bytes_per_second, const WireModel& wire, std::size_t n);
// k for a ratio: ceil(ratio n), at least 1 of a non-empty vector, at most n.
std::size_t elements_for_ratio(double ratio, std::size_t n);

// A smoothed bandwidth: an exponential moving average of bytes / seconds
// over observations (the newest weighs kNewestWeight), so one noisy call
// moves the choice only part way.
class BandwidthEstimate {
 public:
  static constexpr double kNewestWeight = 0.5;
  // Ignored unless bytes > 0 and seconds > 0 (nothing was measured).
  void observe(double bytes, double seconds);
  std::optional<double> bytes_per_second() const { return estimate_; }
  void clear() { estimate_.reset(); }

 private:
  std::optional<double> estimate_;
};

}  // namespace pico::compressed
