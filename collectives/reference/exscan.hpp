// SPDX-License-Identifier: BSD-3-Clause
// Reference exscan algorithms (MPI_Exscan): rank r > 0's receive buffer gets
// the reduction of ranks 0..r-1; rank 0's is not touched (MPI leaves it
// undefined). In place, the input is the receive buffer, so an algorithm
// copies what it still needs of it before the result overwrites it.
// n = message bytes, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
inline ConstBlock exscan_input(const CallArgs& a) {
  return a.in_place ? ConstBlock{a.recv, 0, a.count} : ConstBlock{a.send, 0, a.count};
}
}  // namespace detail

// Linear chain (Open MPI ompi_coll_base_exscan_intra_linear): rank 0 sends
// its input to rank 1; rank r receives its result from r-1 and passes that
// plus its own input to r+1.
// Cost: (p-1) (alpha + n beta) + (p-2) n gamma along the chain.
template <transport::Transport T>
void exscan_linear(T& t, const CallArgs& a) {
  if (a.count == 0 || t.size() == 1) return;
  const int r = t.rank();
  const ConstBlock input = detail::exscan_input(a);
  t.phase("chain");
  if (r == 0) {
    t.send(1, input, 0);
    return;
  }
  const bool passes_on = r + 1 < t.size();
  const Block next{t.scratch(), 0, a.count};
  if (passes_on) t.copy_local(next, input);  // before the receive, which overwrites an in-place input
  const Block result{a.recv, 0, a.count};
  t.recv(r - 1, result, 0);
  if (passes_on) {
    t.reduce_local(next, result);
    t.send(r + 1, next, 0);
  }
}

// Recursive doubling (MPICH MPIR_Exscan_intra_recursive_doubling): the
// exchanges of scan_recursive_doubling; a rank's result is the sum of the
// groups it received from below, the first of them copied rather than added.
// Cost: ceil(log2 p) (alpha + n beta) + up to 2 ceil(log2 p) n gamma.
template <transport::Transport T>
void exscan_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0 || t.size() == 1) return;
  const int r = t.rank();
  const Block result{a.recv, 0, a.count};
  const Block group{t.scratch(), 0, a.count};
  const Block in{t.scratch(), a.count, a.count};
  t.copy_local(group, detail::exscan_input(a));
  t.phase("recursive-doubling");
  bool has_result = false;
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

}  // namespace pico::reference
