// SPDX-License-Identifier: BSD-3-Clause
// Rank arithmetic of the reference algorithms at communicator sizes near
// INT_MAX (issue 20, finding 9): distances that double must not overflow an
// int past 2^30, and r + d must not wrap. A schedule is recorded for one rank
// only, so these run in microseconds.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>

#include "collectives/reference/barrier.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/recording_transport.hpp"

namespace {

using pico::reference::CallArgs;
using pico::transport::OpKind;
using pico::transport::RankSchedule;
using pico::transport::RecordingTransport;

}  // namespace

TEST_CASE("floor_pow2 and mod hold at the top of the int range", "[reference]") {
  CHECK(pico::reference::floor_pow2(INT_MAX) == (1 << 30));
  CHECK(pico::reference::floor_pow2((1 << 30) + 1) == (1 << 30));
  CHECK(pico::reference::floor_pow2(1) == 1);
  CHECK(pico::reference::mod(std::int64_t{INT_MAX} - 1 + (1 << 30), INT_MAX) == (1 << 30) - 1);
  CHECK(pico::reference::mod(-1, INT_MAX) == INT_MAX - 1);
}

TEST_CASE("dissemination barrier on INT_MAX ranks: 31 rounds, every peer in range", "[reference]") {
  const int p = INT_MAX;
  const int r = p - 1;  // the rank whose r + d is largest
  RankSchedule schedule;
  RecordingTransport t(r, p, 1, {}, schedule);
  pico::reference::barrier_dissemination(t, CallArgs{});
  // ceil(log2(2^31 - 1)) = 31 rounds, each one send and one receive.
  REQUIRE(schedule.ops.size() == 2 * 31);
  std::int64_t d = 1;
  for (std::size_t i = 0; i < schedule.ops.size(); i += 2, d *= 2) {
    const auto& send = schedule.ops[i];
    const auto& recv = schedule.ops[i + 1];
    REQUIRE(send.kind == OpKind::send);
    REQUIRE(recv.kind == OpKind::recv);
    CHECK(send.peer == static_cast<int>((r + d) % p));
    CHECK(recv.peer == static_cast<int>(((r - d) % p + p) % p));
  }
}
