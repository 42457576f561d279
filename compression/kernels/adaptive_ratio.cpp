// SPDX-License-Identifier: BSD-3-Clause
#include "compression/kernels/adaptive_ratio.hpp"

#include <algorithm>
#include <cmath>

namespace pico::compressed {

double choose_ratio(const RatioRule& rule, double bytes_per_second, const WireModel& wire, std::size_t n) {
  if (n == 0 || wire.bytes_per_element <= 0) return rule.max_ratio;
  const double budget = rule.time_target_s * bytes_per_second - wire.fixed_bytes;
  const double wanted = budget / wire.bytes_per_element / static_cast<double>(n);
  return std::clamp(wanted, rule.min_ratio, rule.max_ratio);
}

std::size_t elements_for_ratio(double ratio, std::size_t n) {
  const auto wanted = static_cast<std::size_t>(std::ceil(ratio * static_cast<double>(n)));
  return std::min(n, std::max<std::size_t>(n == 0 ? 0 : 1, wanted));
}

void BandwidthEstimate::observe(double bytes, double seconds) {
  if (!(bytes > 0 && seconds > 0)) return;
  const double measured = bytes / seconds;
  estimate_ = estimate_ ? kNewestWeight * measured + (1 - kNewestWeight) * *estimate_ : measured;
}

}  // namespace pico::compressed
