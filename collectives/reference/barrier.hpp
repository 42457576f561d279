// SPDX-License-Identifier: BSD-3-Clause
// Reference barrier.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Dissemination (Hensgen, Finkel & Manber; MPICH MPIR_Barrier_intra_dissemination):
// in round k every rank signals rank + 2^k and waits for rank - 2^k; after
// ceil(log2 p) rounds every rank has heard, transitively, from all others.
// Cost: ceil(log2 p) alpha.
template <transport::Transport T>
void barrier_dissemination(T& t, const CallArgs&) {
  const int p = t.size(), r = t.rank();
  // 64-bit distance: doubling an int past 2^30 would overflow for p > 2^30.
  int step = 0;
  for (std::int64_t d = 1; d < p; d <<= 1, ++step) t.sendrecv(mod(r + d, p), ConstBlock{}, mod(r - d, p), Block{}, step);
}

}  // namespace pico::reference
