// SPDX-License-Identifier: BSD-3-Clause
// The adaptive ratio rule (compression/kernels/adaptive_ratio.hpp), with
// bandwidths given instead of timed: a faster link gets a larger ratio, the
// bounds hold, and the estimate smooths.
#include <catch2/catch.hpp>

#include "compression/kernels/adaptive_ratio.hpp"

namespace pc = pico::compressed;

TEST_CASE("adaptive ratio: a faster link gets a larger ratio, within the bounds", "[compression][adaptive]") {
  const pc::RatioRule rule{.time_target_s = 0.01, .min_ratio = 0.001, .max_ratio = 0.1};
  const pc::WireModel wire{.fixed_bytes = 24, .bytes_per_element = 24};  // Top-k's allgather on 4 ranks
  const std::size_t n = std::size_t{4} << 20;
  // 1 Gbit/s: 1.25e6 bytes in 10 ms, (1.25e6 - 24) / 24 elements of 4 Mi.
  const double gigabit = pc::choose_ratio(rule, 125e6, wire, n);
  CHECK(gigabit == Approx((125e6 * 0.01 - 24) / 24 / static_cast<double>(n)));
  const double slower = pc::choose_ratio(rule, 50e6, wire, n);
  const double faster = pc::choose_ratio(rule, 400e6, wire, n);
  CHECK(slower < gigabit);
  CHECK(gigabit < faster);
  // Beyond the bounds: clamped.
  CHECK(pc::choose_ratio(rule, 1e3, wire, n) == rule.min_ratio);
  CHECK(pc::choose_ratio(rule, 1e12, wire, n) == rule.max_ratio);
  // Non-decreasing over a sweep of bandwidths.
  double previous = 0;
  for (double bandwidth = 1e5; bandwidth < 1e11; bandwidth *= 1.7) {
    const double r = pc::choose_ratio(rule, bandwidth, wire, n);
    CHECK(r >= previous);
    CHECK(r >= rule.min_ratio);
    CHECK(r <= rule.max_ratio);
    previous = r;
  }
  // A longer target buys a larger ratio on the same link.
  pc::RatioRule patient = rule;
  patient.time_target_s = 0.02;
  CHECK(pc::choose_ratio(patient, 125e6, wire, n) > gigabit);
}

TEST_CASE("adaptive ratio: k of a ratio", "[compression][adaptive]") {
  CHECK(pc::elements_for_ratio(0.01, 1000) == 10);
  CHECK(pc::elements_for_ratio(0.0101, 1000) == 11);  // ceil
  CHECK(pc::elements_for_ratio(1e-9, 1000) == 1);      // something is always sent
  CHECK(pc::elements_for_ratio(1.0, 1000) == 1000);
  CHECK(pc::elements_for_ratio(0.5, 0) == 0);
}

TEST_CASE("adaptive ratio: the bandwidth estimate smooths measurements", "[compression][adaptive]") {
  pc::BandwidthEstimate e;
  CHECK_FALSE(e.bytes_per_second());
  e.observe(0, 1.0);  // nothing moved: no information
  e.observe(100, 0);  // no time measured: none either
  CHECK_FALSE(e.bytes_per_second());
  e.observe(1000, 1.0);
  CHECK(*e.bytes_per_second() == 1000);
  e.observe(3000, 1.0);  // half way to the newest
  CHECK(*e.bytes_per_second() == Approx(1000 + pc::BandwidthEstimate::kNewestWeight * 2000));
  for (int i = 0; i < 60; ++i) e.observe(3000, 1.0);
  CHECK(*e.bytes_per_second() == Approx(3000));
  e.clear();
  CHECK_FALSE(e.bytes_per_second());
}
