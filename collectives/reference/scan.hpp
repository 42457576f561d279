// SPDX-License-Identifier: BSD-3-Clause
// Reference scan algorithms (MPI_Scan): rank r's receive buffer gets the
// reduction of ranks 0..r. Operations are commutative (pico's), so the order
// in which a rank combines its pieces does not change the result.
// n = message bytes, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Linear chain (Open MPI ompi_coll_base_scan_intra_linear): rank r waits for
// the prefix of ranks 0..r-1 from r-1, adds its input and passes the result on.
// Cost: (p-1) (alpha + n beta + n gamma) along the chain.
template <transport::Transport T>
void scan_linear(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int r = t.rank();
  const Block result = input_in_recv(t, a);
  t.phase("chain");
  if (r > 0) {
    const Block prefix{t.scratch(), 0, a.count};
    t.recv(r - 1, prefix, 0);
    t.reduce_local(result, prefix);
  }
  if (r + 1 < t.size()) t.send(r + 1, result, 0);
}

// Recursive doubling (MPICH MPIR_Scan_intra_recursive_doubling): at step k a
// rank exchanges with r xor 2^k, where that rank exists, the reduction of its
// aligned group of 2^k ranks; both add what they receive to their group's
// total, and a rank adds it to its result only when it came from below.
// Any p: a partner past the last rank is skipped.
// Cost: ceil(log2 p) (alpha + n beta + 2 n gamma).
template <transport::Transport T>
void scan_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int r = t.rank();
  const Block result = input_in_recv(t, a);
  const Block group{t.scratch(), 0, a.count};
  const Block in{t.scratch(), a.count, a.count};
  t.copy_local(group, result);
  t.phase("recursive-doubling");
  for (int mask = 1, step = 0; mask < t.size(); mask <<= 1, ++step) {
    const int partner = r ^ mask;
    if (partner >= t.size()) continue;
    t.sendrecv(partner, group, partner, in, step);
    t.reduce_local(group, in);
    if (partner < r) t.reduce_local(result, in);
  }
}

}  // namespace pico::reference
