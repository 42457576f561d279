// SPDX-License-Identifier: BSD-3-Clause
// Reference reduce algorithms. The result lands in the root's receive
// buffer; other ranks' receive buffers are not touched (MPI leaves them
// undefined), so partial results live in scratch. In place, the root's input
// is its receive buffer. n = message bytes, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/reference/trees.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
inline ConstBlock reduce_input(const CallArgs& a, bool is_root) {
  return is_root && a.in_place ? ConstBlock{a.recv, 0, a.count} : ConstBlock{a.send, 0, a.count};
}
}  // namespace detail

// Binomial tree (MPICH MPIR_Reduce_intra_binomial).
// Cost: ceil(log2 p) (alpha + n beta + n gamma).
template <transport::Transport T>
void reduce_binomial(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const bool is_root = t.rank() == a.root;
  const Block acc = is_root ? Block{a.recv, 0, a.count} : Block{t.scratch(), 0, a.count};
  binomial_reduce(t, detail::reduce_input(a, is_root), acc, Block{t.scratch(), a.count, a.count}, a.root, 0);
}

// Rabenseifner (MPICH MPIR_Reduce_intra_reduce_scatter_gather): reduce-scatter
// by recursive halving over the power-of-two core, then a binomial gather of
// the reduced blocks to the root. Extra ranks fold in first; a root that
// folds out gets the result from its partner at the end.
// Cost (p a power of two): 2 log2(p) alpha + 2(p-1)/p n beta + (p-1)/p n gamma;
// otherwise add alpha + n beta + n gamma for the fold (and alpha + n beta for a folded-out root).
template <transport::Transport T>
void reduce_rabenseifner(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int r = t.rank();
  const bool is_root = r == a.root;
  const Block acc = is_root ? Block{a.recv, 0, a.count} : Block{t.scratch(), 0, a.count};
  const ConstBlock input = detail::reduce_input(a, is_root);
  t.copy_local(acc, input);
  const Fold fold(t.size());
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, acc, 0);
  if (fold.folded_in(r)) {
    const Block tmp{t.scratch(), a.count, a.count};
    t.recv(r - 1, tmp, 0);
    t.reduce_local(acc, tmp);
  }
  // The core rank standing in for the root: the root itself, or its partner if it folded out.
  const int core_root = fold.vrank(fold.folded_out(a.root) ? a.root + 1 : a.root);
  if (const int v = fold.vrank(r); v >= 0) {
    const Partition part{a.count, fold.pof2};
    t.phase("reduce-scatter");
    int step = for_each_halving_step(fold.pof2, v, [&](const HalvingStep& s) {
      const int partner = fold.real(s.partner_v);
      const Block in{t.scratch(), a.count + part.offset(s.keep_lo), part.span(s.keep_lo, s.keep_hi)};
      t.sendrecv(partner, part.blocks(acc.base, s.give_lo, s.give_hi), partner, in, s.step);
      t.reduce_local(part.blocks(acc.base, s.keep_lo, s.keep_hi), in);
    });
    // Gather: a binomial tree in the xor space around core_root; the window a
    // rank holds is always the aligned run of blocks around its own.
    t.phase("gather");
    const int u = v ^ core_root;
    for (int mask = 1; mask < fold.pof2; mask <<= 1, ++step) {
      const int partner_v = v ^ mask;
      if (u & mask) {
        const int mine = v & ~(mask - 1);
        t.send(fold.real(partner_v), part.blocks(acc.base, mine, mine + mask), step);
        break;
      }
      const int theirs = partner_v & ~(mask - 1);
      t.recv(fold.real(partner_v), part.blocks(acc.base, theirs, theirs + mask), step);
    }
  }
  if (fold.folded_out(a.root)) {
    t.phase("unfold");
    if (r == a.root + 1) t.send(a.root, acc, 0);
    if (is_root) t.recv(a.root + 1, acc, 0);
  }
}

}  // namespace pico::reference
