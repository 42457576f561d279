// SPDX-License-Identifier: BSD-3-Clause
// Reference broadcast algorithms (the buffer is CallArgs::recv on every
// rank). n = message bytes, p = ranks, alpha-beta model.
#pragma once

#include <algorithm>

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/reference/trees.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Binomial tree (MPICH MPIR_Bcast_intra_binomial).
// Cost: ceil(log2 p) (alpha + n beta).
template <transport::Transport T>
void bcast_binomial(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  binomial_bcast(t, Block{a.recv, 0, a.count}, a.root, 0);
}

// Van de Geijn (MPICH MPIR_Bcast_intra_scatter_ring_allgather): a binomial
// scatter leaves block v (of p blocks, counted from the root) on relative
// rank v, then a ring allgather completes every buffer. Bandwidth-optimal
// for long messages.
// Cost: (ceil(log2 p) + p - 1) alpha + 2(p-1)/p n beta.
template <transport::Transport T>
void bcast_scatter_allgather(T& t, const CallArgs& a) {
  const int p = t.size();
  if (a.count == 0 || p == 1) return;
  const Binomial tree{p, a.root};
  const Partition part{a.count, p};
  const int v = tree.vrank(t.rank());
  t.phase("scatter");
  // Relative rank v needs blocks [v, v + subtree(v)): the root has them all.
  if (v != 0) t.recv(tree.real(tree.parent(v)), part.blocks(a.recv, v, v + tree.subtree(v)), 0);
  for (int mask = tree.top_child_mask(v); mask > 0; mask >>= 1) {
    const int child = v + mask;
    if (child < p) t.send(tree.real(child), part.blocks(a.recv, child, child + tree.subtree(child)), 0);
  }
  t.phase("allgather");
  const int right = tree.real(mod(v + 1, p)), left = tree.real(mod(v - 1, p));
  for (int k = 0; k < p - 1; ++k)
    t.sendrecv(right, part.block(a.recv, mod(v - k, p)), left, part.block(a.recv, mod(v - k - 1, p)), 1 + k);
}

// Linear (Open MPI coll_base_bcast_intra_basic_linear): the root sends the
// whole message to every other rank in turn; its one link carries p-1 copies,
// which is why a tree or a pipeline beats it from a few KiB on p > 2.
// Cost: (p-1) (alpha + n beta) at the root.
template <transport::Transport T>
void bcast_linear(T& t, const CallArgs& a) {
  const int p = t.size(), r = t.rank();
  if (a.count == 0 || p == 1) return;
  const Block whole{a.recv, 0, a.count};
  if (r != a.root) {
    t.recv(a.root, whole, 0);
    return;
  }
  for (int i = 1; i < p; ++i) t.send(mod(a.root + i, p), whole, 0);
}

// Pipelined chain (Open MPI coll_base_bcast_intra_chain with fanout 1): the
// message moves root -> root+1 -> ... in segments of a.segment elements, each
// rank forwarding segment j while its predecessor sends j+1.
// Cost: (p - 2 + s) (alpha + (n/s) beta), s = ceil(n / segment) segments.
template <transport::Transport T>
void bcast_chain(T& t, const CallArgs& a) {
  const int p = t.size();
  if (a.count == 0 || p == 1) return;
  const Binomial rel{p, a.root};  // only its relative numbering
  const int v = rel.vrank(t.rank());
  const std::size_t seg = a.segment == 0 ? a.count : std::min(a.segment, a.count);
  const int segments = static_cast<int>(ceil_div(a.count, seg));
  for (int j = 0; j < segments; ++j) {
    const std::size_t lo = static_cast<std::size_t>(j) * seg;
    const Block piece{a.recv, lo, std::min(seg, a.count - lo)};
    if (v > 0) t.recv(rel.real(v - 1), piece, j);
    if (v + 1 < p) t.send(rel.real(v + 1), piece, j);
  }
}

}  // namespace pico::reference
