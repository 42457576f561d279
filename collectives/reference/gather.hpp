// SPDX-License-Identifier: BSD-3-Clause
// Reference gather algorithms: block r of the root's receive buffer gets
// rank r's count elements. In place, the root's block is already at position
// root of its receive buffer. n = bytes of one block, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Binomial tree (MPICH MPIR_Gather_intra_binomial): each rank collects its
// subtree's blocks, in relative-rank order, and passes them up in one
// message. A root other than 0 gathers in scratch and rotates at the end.
// Cost: ceil(log2 p) alpha + (p-1) n beta.
template <transport::Transport T>
void gather_binomial(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size();
  const Binomial tree{p, a.root};
  const int v = tree.vrank(t.rank());
  const std::size_t n = a.count, pn = n * static_cast<std::size_t>(p);
  const int subtree = tree.subtree(v);
  if (v != 0 && subtree == 1) {
    t.send(tree.real(tree.parent(v)), ConstBlock{a.send, 0, n}, 0);
    return;
  }
  // With root 0 relative order is rank order: gather straight into the receive buffer.
  void* buf = v == 0 && a.root == 0 ? a.recv : t.scratch();
  const std::size_t root_at = static_cast<std::size_t>(a.root) * n;
  const ConstBlock own = v == 0 && a.in_place ? ConstBlock{a.recv, root_at, n} : ConstBlock{a.send, 0, n};
  t.copy_local(Block{buf, 0, n}, own);
  for (std::int64_t mask = 1; mask < tree.child_bound(v) && v + mask < p; mask <<= 1) {  // 64-bit: p near 2^31
    const int child = static_cast<int>(v + mask);
    const std::size_t blocks = static_cast<std::size_t>(tree.subtree(child));
    t.recv(tree.real(child), Block{buf, static_cast<std::size_t>(mask) * n, blocks * n}, 0);
  }
  if (v != 0) {
    t.send(tree.real(tree.parent(v)), ConstBlock{buf, 0, static_cast<std::size_t>(subtree) * n}, 0);
  } else if (buf != a.recv) {
    t.phase("rotate");
    t.copy_local(Block{a.recv, root_at, pn - root_at}, ConstBlock{buf, 0, pn - root_at});
    t.copy_local(Block{a.recv, 0, root_at}, ConstBlock{buf, pn - root_at, root_at});
  }
}

// Linear (Open MPI coll_base_gather_intra_basic_linear): the root receives
// from every rank in turn.
// Cost: (p-1) (alpha + n beta) at the root.
template <transport::Transport T>
void gather_linear(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count;
  if (r != a.root) {
    t.send(a.root, ConstBlock{a.send, 0, n}, 0);
    return;
  }
  if (!a.in_place) t.copy_local(Block{a.recv, static_cast<std::size_t>(r) * n, n}, ConstBlock{a.send, 0, n});
  for (int i = 0; i < p; ++i)
    if (i != r) t.recv(i, Block{a.recv, static_cast<std::size_t>(i) * n, n}, 0);
}

}  // namespace pico::reference
