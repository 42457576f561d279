// SPDX-License-Identifier: BSD-3-Clause
// Reference exscan algorithms (MPI_Exscan): rank r > 0's receive buffer gets
// the reduction of ranks 0..r-1; rank 0's is not touched (MPI leaves it
// undefined). In place, the input is the receive buffer, so an algorithm
// copies what it still needs of it before the result overwrites it.
// n = message bytes, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/reference/scan.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Linear chain (Open MPI ompi_coll_base_exscan_intra_linear): rank 0 sends
// its input to rank 1; rank r receives its result from r-1 and passes that
// plus its own input to r+1.
// Cost: (p-1) (alpha + n beta) + (p-2) n gamma along the chain.
template <transport::Transport T>
void exscan_linear(T& t, const CallArgs& a) {
  if (a.count == 0 || t.size() == 1) return;
  const int r = t.rank();
  const ConstBlock input = detail::prefix_input(a);
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

// Recursive doubling (MPICH MPIR_Exscan_intra_recursive_doubling): scan's
// exchanges (scan.hpp); the result is the sum of the groups received from below.
// Cost: ceil(log2 p) (alpha + n beta) + up to 2 ceil(log2 p) n gamma.
template <transport::Transport T>
void exscan_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0 || t.size() == 1) return;
  detail::prefix_recursive_doubling(t, a, false);
}

}  // namespace pico::reference
