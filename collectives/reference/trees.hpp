// SPDX-License-Identifier: BSD-3-Clause
// Binomial-tree building blocks shared by reduce, bcast and allreduce.
#pragma once

#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Reduces every rank's `input` into `acc` at `root` along a binomial tree
// (MPICH's MPIR_Reduce_intra_binomial). A leaf sends its input untouched; an
// inner rank first copies its input into `acc` (a no-op when they coincide),
// then folds each child's partial result, received into `tmp`, into `acc`.
// Every rank's acc must be writable; at the root it holds the result.
// Cost: ceil(log2 p) (alpha + n beta + n gamma).
template <transport::Transport T>
void binomial_reduce(T& t, ConstBlock input, Block acc, Block tmp, int root, int tag) {
  const Binomial tree{t.size(), root};
  const int v = tree.vrank(t.rank());
  const bool leaf = v % 2 == 1 || v + 1 >= tree.p;
  if (leaf) {
    if (v != 0) t.send(tree.real(tree.parent(v)), input, tag);
    else t.copy_local(acc, input);
    return;
  }
  t.copy_local(acc, input);
  for (std::int64_t mask = 1; mask < tree.child_bound(v) && v + mask < tree.p; mask <<= 1) {  // 64-bit: p near 2^31
    t.recv(tree.real(static_cast<int>(v + mask)), tmp, tag);
    t.reduce_local(acc, tmp);
  }
  if (v != 0) t.send(tree.real(tree.parent(v)), acc, tag);
}

// Broadcasts `buf` from `root` along a binomial tree (MPICH's
// MPIR_Bcast_intra_binomial): receive from the parent, then send to the
// children, farthest subtree first so the deepest chain starts earliest.
// Cost: ceil(log2 p) (alpha + n beta).
template <transport::Transport T>
void binomial_bcast(T& t, Block buf, int root, int tag) {
  const Binomial tree{t.size(), root};
  const int v = tree.vrank(t.rank());
  if (v != 0) t.recv(tree.real(tree.parent(v)), buf, tag);
  for (int mask = tree.top_child_mask(v); mask > 0; mask >>= 1)
    if (v + mask < tree.p) t.send(tree.real(v + mask), buf, tag);
}

}  // namespace pico::reference
