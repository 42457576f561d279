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

namespace detail {
// A rank's input: the receive buffer in place.
inline ConstBlock prefix_input(const CallArgs& a) {
  return a.in_place ? ConstBlock{a.recv, 0, a.count} : ConstBlock{a.send, 0, a.count};
}

// The exchanges of MPICH's recursive-doubling scan and exscan: at step k a
// rank exchanges with r xor 2^k, where that rank exists, the reduction of its
// aligned group of 2^k ranks; both add what they receive to their group's
// total, and a rank adds it to its result only when it came from below (an
// exclusive scan copies the first such group instead: its result starts
// empty). Any p: a partner past the last rank is skipped.
template <transport::Transport T>
void prefix_recursive_doubling(T& t, const CallArgs& a, bool inclusive) {
  const int r = t.rank();
  const Block result{a.recv, 0, a.count};
  const Block group{t.scratch(), 0, a.count};
  const Block in{t.scratch(), a.count, a.count};
  // The input, copied before anything is written to the receive buffer (where it is in place).
  t.copy_local(group, prefix_input(a));
  if (inclusive && !a.in_place) t.copy_local(result, group);
  bool has_result = inclusive;
  t.phase("recursive-doubling");
  for (int mask = 1, step = 0; mask < t.size(); mask <<= 1, ++step) {
    const int partner = r ^ mask;
    if (partner >= t.size()) continue;
    t.sendrecv(partner, group, partner, in, step);
    t.reduce_local(group, in);
    if (partner < r) {
      if (has_result) t.reduce_local(result, in);
      else t.copy_local(result, in);
      has_result = true;
    }
  }
}
}  // namespace detail

// Recursive doubling (MPICH MPIR_Scan_intra_recursive_doubling): the result
// starts as the rank's input and gains each group from below.
// Cost: ceil(log2 p) (alpha + n beta + 2 n gamma).
template <transport::Transport T>
void scan_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  detail::prefix_recursive_doubling(t, a, true);
}

}  // namespace pico::reference
