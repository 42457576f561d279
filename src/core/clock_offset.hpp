// SPDX-License-Identifier: BSD-3-Clause
// A rank's clock against rank 0's, estimated from ping-pong rounds as
// Netgauge and ReproMPI do (docs/methodology.md#per-rank-timing): the round
// with the shortest round trip bounds the error best, and rank 0's reading is
// taken to fall at that round's midpoint.
#pragma once

#include <span>
#include <string_view>

namespace pico {

// One round between a rank and rank 0: when the rank sent (its clock), what
// rank 0's clock read on receipt, when the answer came back (its clock).
struct PingPong {
  double sent_s = 0;
  double reference_s = 0;
  double received_s = 0;
};

// local clock - rank 0's clock, and the bound on its error: half the round
// trip of the round used (rank 0's reading lies somewhere in it).
struct ClockOffset {
  double offset_s = 0;
  double residual_s = 0;
};

// The report's clock_sync.method.
inline constexpr std::string_view kClockSyncMethod =
    "ping-pong with rank 0, the round of shortest round trip (offset: its midpoint minus rank 0's reading; "
    "residual: half its round trip)";
// Rounds per rank: the first pays for connection set-up; the minimum of many is near the wire's.
inline constexpr int kClockSyncRounds = 32;

// Requires at least one round.
ClockOffset estimate_offset(std::span<const PingPong> rounds);

}  // namespace pico
