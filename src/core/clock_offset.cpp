// SPDX-License-Identifier: BSD-3-Clause
#include "core/clock_offset.hpp"

#include <stdexcept>

namespace pico {

ClockOffset estimate_offset(std::span<const PingPong> rounds) {
  if (rounds.empty()) throw std::invalid_argument("estimate_offset: no rounds");
  const PingPong* best = &rounds.front();
  for (const PingPong& p : rounds)
    if (p.received_s - p.sent_s < best->received_s - best->sent_s) best = &p;
  const double round_trip = best->received_s - best->sent_s;
  return {.offset_s = (best->sent_s + best->received_s) / 2 - best->reference_s, .residual_s = round_trip / 2};
}

}  // namespace pico
