// SPDX-License-Identifier: BSD-3-Clause
// Reference scatter algorithms: rank r receives block r of the root's send
// buffer. In place, the root passes no receive buffer and its own block
// stays where it is in the send buffer. n = bytes of one block, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Binomial tree (MPICH MPIR_Scatter_intra_binomial): each rank receives its
// subtree's blocks in one message and hands each child subtree its part,
// farthest first. A root other than 0 rotates its blocks into relative-rank
// order in scratch first.
// Cost: ceil(log2 p) alpha + (p-1) n beta.
template <transport::Transport T>
void scatter_binomial(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size();
  const Binomial tree{p, a.root};
  const int v = tree.vrank(t.rank());
  const std::size_t n = a.count, pn = n * static_cast<std::size_t>(p);
  const int subtree = tree.subtree(v);
  if (v != 0 && subtree == 1) {
    t.recv(tree.real(tree.parent(v)), Block{a.recv, 0, n}, 0);
    return;
  }
  const void* buf = t.scratch();
  if (v != 0) {
    t.recv(tree.real(tree.parent(v)), Block{t.scratch(), 0, static_cast<std::size_t>(subtree) * n}, 0);
  } else if (a.root == 0) {
    buf = a.send;  // relative order is rank order
  } else {
    t.phase("rotate");
    const std::size_t root_at = static_cast<std::size_t>(a.root) * n;
    t.copy_local(Block{t.scratch(), 0, pn - root_at}, ConstBlock{a.send, root_at, pn - root_at});
    t.copy_local(Block{t.scratch(), pn - root_at, root_at}, ConstBlock{a.send, 0, root_at});
  }
  t.phase("scatter");
  for (int mask = tree.top_child_mask(v); mask > 0; mask >>= 1) {
    if (v + mask >= p) continue;
    const std::size_t blocks = static_cast<std::size_t>(tree.subtree(v + mask));
    t.send(tree.real(v + mask), ConstBlock{buf, static_cast<std::size_t>(mask) * n, blocks * n}, 0);
  }
  if (!(v == 0 && a.in_place)) t.copy_local(Block{a.recv, 0, n}, ConstBlock{buf, 0, n});
}

// Linear (Open MPI coll_base_scatter_intra_basic_linear): the root sends to
// every rank in turn.
// Cost: (p-1) (alpha + n beta) at the root.
template <transport::Transport T>
void scatter_linear(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count;
  if (r != a.root) {
    t.recv(a.root, Block{a.recv, 0, n}, 0);
    return;
  }
  for (int i = 0; i < p; ++i)
    if (i != r) t.send(i, ConstBlock{a.send, static_cast<std::size_t>(i) * n, n}, 0);
  if (!a.in_place) t.copy_local(Block{a.recv, 0, n}, ConstBlock{a.send, static_cast<std::size_t>(r) * n, n});
}

}  // namespace pico::reference
