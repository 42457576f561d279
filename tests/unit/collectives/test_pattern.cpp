// SPDX-License-Identifier: BSD-3-Clause
// The closed forms the validator trusts, checked against brute force.
#include <vector>

#include <catch2/catch.hpp>

#include "collectives/element_ops.hpp"
#include "collectives/pattern.hpp"
#include "collectives/spec.hpp"

using namespace pico;

namespace {

// Reduction over ranks 0..ranks-1 of np in the type's own arithmetic, in rank
// order (integers wrap modulo 2^bits).
template <class T>
T brute_force(Op op, int np, int ranks, std::uint64_t index) {
  T acc = pattern::reduce_input<T>(op, 0, np, index);
  for (int r = 1; r < ranks; ++r) {
    const T x = pattern::reduce_input<T>(op, r, np, index);
    switch (op) {
      case Op::sum: acc = static_cast<T>(acc + x); break;
      case Op::prod: acc = static_cast<T>(acc * x); break;
      case Op::min: acc = std::min(acc, x); break;
      case Op::max: acc = std::max(acc, x); break;
      case Op::none: break;
    }
  }
  return acc;
}

}  // namespace

TEST_CASE("closed-form reduction results equal brute force", "[pattern]") {
  for (Dtype d : host_dtypes()) {
    visit_dtype(d, [&]<class T>() {
      for (Op op : all_ops()) {
        for (int np : {1, 2, 3, 4, 5, 7, 8, 16, 17, 18, 33, 100, 257}) {
          for (std::uint64_t i = 0; i < 60; ++i) {
            INFO(name(d) << " " << name(op) << " np=" << np << " i=" << i);
            REQUIRE(pattern::reduce_expected<T>(op, np, np, i) == brute_force<T>(op, np, np, i));
          }
        }
      }
    });
  }
}

// scan and exscan check rank r against the reduction over ranks 0..r (0..r-1).
TEST_CASE("closed-form prefix reductions equal brute force", "[pattern]") {
  for (Dtype d : host_dtypes()) {
    visit_dtype(d, [&]<class T>() {
      for (Op op : all_ops()) {
        for (int np : {1, 2, 3, 5, 8, 9, 17, 40}) {
          for (int ranks = 1; ranks <= np; ++ranks) {
            for (std::uint64_t i = 0; i < 60; ++i) {
              INFO(name(d) << " " << name(op) << " np=" << np << " ranks=" << ranks << " i=" << i);
              REQUIRE(pattern::reduce_expected<T>(op, np, ranks, i) == brute_force<T>(op, np, ranks, i));
            }
          }
        }
      }
    });
  }
}

TEST_CASE("inputs differ across ranks and elements, and sentinels differ from results", "[pattern]") {
  CHECK(pattern::reduce_input<float>(Op::sum, 0, 4, 0) != pattern::reduce_input<float>(Op::sum, 1, 4, 0));
  CHECK(pattern::reduce_input<float>(Op::sum, 0, 4, 0) != pattern::reduce_input<float>(Op::sum, 0, 4, 1));
  CHECK(pattern::payload<std::int8_t>(0, 0) != pattern::payload<std::int8_t>(1, 0));
  CHECK(pattern::payload<std::int8_t>(0, 0) != pattern::payload<std::int8_t>(0, 1));
  for (int r = 0; r < 300; ++r)
    for (std::uint64_t i = 0; i < 300; ++i) REQUIRE(pattern::payload<std::uint8_t>(r, i) <= 126);
  CHECK(pattern::sentinel_for<std::uint8_t>(255) != 255);
  CHECK(pattern::sentinel_for<float>(2.0f) != 2.0f);
  // Signed inputs take negative values, so sign handling is exercised.
  CHECK(pattern::reduce_input<std::int32_t>(Op::sum, 0, 2, 0) == -8);
  CHECK(pattern::reduce_input<std::uint8_t>(Op::sum, 0, 2, 0) == 0);
}

TEST_CASE("bandwidth factors follow nccl-tests", "[pattern]") {
  Case c;
  c.bytes = 1000000000;
  c.np = 4;
  c.collective = Collective::allreduce;
  CHECK(algbw_GBps(c, 1.0) == Approx(1.0));
  CHECK(busbw_GBps(c, 1.0) == Approx(1.5));  // 2(n-1)/n
  c.collective = Collective::allgather;  // S = n x per-rank block
  CHECK(algbw_GBps(c, 1.0) == Approx(4.0));
  CHECK(busbw_GBps(c, 1.0) == Approx(3.0));  // (n-1)/n
  c.collective = Collective::reduce_scatter;
  CHECK(busbw_GBps(c, 2.0) == Approx(1.5));
  c.collective = Collective::alltoall;
  CHECK(busbw_GBps(c, 1.0) == Approx(3.0));
  c.collective = Collective::bcast;
  CHECK(busbw_GBps(c, 0.5) == Approx(2.0));
  c.collective = Collective::reduce;
  CHECK(busbw_GBps(c, 1.0) == Approx(1.0));
  c.collective = Collective::barrier;
  c.bytes = 0;
  CHECK(busbw_GBps(c, 1.0) == 0.0);
}

TEST_CASE("buffer sizes per collective", "[pattern]") {
  Case c;
  c.count = 10;
  c.np = 3;
  c.collective = Collective::allgather;
  CHECK(spec_for(c.collective).buffer_sizes(c, 0).send == 10);
  CHECK(spec_for(c.collective).buffer_sizes(c, 0).recv == 30);
  c.collective = Collective::reduce_scatter;
  CHECK(spec_for(c.collective).buffer_sizes(c, 0).send == 30);
  CHECK(spec_for(c.collective).buffer_sizes(c, 0).recv == 10);
  c.in_place = true;
  CHECK(spec_for(c.collective).buffer_sizes(c, 0).recv == 30);
  c.collective = Collective::alltoall;
  CHECK(spec_for(c.collective).buffer_sizes(c, 2).recv == 30);
}

TEST_CASE("every pattern repeats with the period its fills copy", "[pattern]") {
  for (Dtype d : host_dtypes()) {
    visit_dtype(d, [&]<class T>() {
      for (int rank : {0, 1, 5}) {
        for (std::uint64_t i = 0; i < 300; ++i) {
          INFO(name(d) << " rank=" << rank << " i=" << i);
          REQUIRE(pattern::payload<T>(rank, i) == pattern::payload<T>(rank, i + pattern::kPayloadPeriod));
        }
      }
      for (Op op : all_ops()) {
        if (op == Op::none) continue;
        for (int np : {1, 2, 3, 4, 5, 6, 16, 17, 33}) {
          const std::uint64_t period = pattern::reduce_period(op, np);
          for (int ranks : {1, np / 2 + 1, np}) {
            for (std::uint64_t i = 0; i < 2 * period + 40; ++i) {
              INFO(name(d) << " " << name(op) << " np=" << np << " ranks=" << ranks << " i=" << i);
              REQUIRE(pattern::reduce_input<T>(op, ranks - 1, np, i) ==
                      pattern::reduce_input<T>(op, ranks - 1, np, i + period));
              REQUIRE(pattern::reduce_expected<T>(op, np, ranks, i) ==
                      pattern::reduce_expected<T>(op, np, ranks, i + period));
            }
          }
        }
      }
    });
  }
}

TEST_CASE("host fills write each element's own value", "[pattern]") {
  // Lengths below, at and past a period and between its doublings.
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{16}, std::uint64_t{17},
                          std::uint64_t{127}, std::uint64_t{128}, std::uint64_t{1000}, std::uint64_t{4099}}) {
    for (Op op : {Op::sum, Op::prod, Op::max}) {
      for (int np : {4, 6}) {
        Case c;
        c.dtype = Dtype::float32;
        c.op = op;
        c.np = np;
        const HostElementOps ops(c);
        std::vector<float> buf(n + 3, -1000.0F);
        INFO("n=" << n << " " << name(op) << " np=" << np);
        ops.fill_payload(buf.data(), 3, 2, 11, n);
        for (std::uint64_t k = 0; k < n; ++k) REQUIRE(buf[3 + k] == pattern::payload<float>(2, 11 + k));
        REQUIRE(buf[2] == -1000.0F);  // nothing before the region
        ops.fill_payload_sentinel(buf.data(), 3, 2, 11, n);
        for (std::uint64_t k = 0; k < n; ++k)
          REQUIRE(buf[3 + k] == pattern::sentinel_for(pattern::payload<float>(2, 11 + k)));
        std::vector<float> red(n + 1, -1000.0F);
        ops.fill_reduce_input(red.data(), 1, n);
        for (std::uint64_t k = 0; k < n; ++k) REQUIRE(red[k] == pattern::reduce_input<float>(op, 1, np, k));
        REQUIRE(red[n] == -1000.0F);  // nothing past it
        ops.fill_reduce_sentinel(red.data(), 5, n, np - 1);
        for (std::uint64_t k = 0; k < n; ++k)
          REQUIRE(red[k] == pattern::sentinel_for(pattern::reduce_expected<float>(op, np, np - 1, 5 + k)));
        REQUIRE(ops.count_reduce_mismatches(red.data(), 5, n, np - 1) == n);
      }
    }
  }
}
