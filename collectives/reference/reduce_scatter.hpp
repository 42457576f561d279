// SPDX-License-Identifier: BSD-3-Clause
// Reference reduce_scatter algorithms with MPI_Reduce_scatter_block
// semantics: every rank contributes p blocks of count elements and rank r
// receives the reduction of block r. In place, the input is the receive
// buffer (p blocks) and the result lands in its first block. Partial results
// live in scratch so that an in-place input is never overwritten before it is
// read. n = bytes of one block, p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
inline const void* reduce_scatter_input(const CallArgs& a) { return a.in_place ? a.recv : a.send; }
}  // namespace detail

// Ring: block b's partial sum starts at rank b+1 and travels p-1 hops to
// rank b, each rank adding its own contribution; two scratch blocks
// alternate between the one being sent and the one being received.
// Cost: (p-1) alpha + (p-1) n beta + (p-1) n gamma.
template <transport::Transport T>
void reduce_scatter_ring(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count;
  const void* in = detail::reduce_scatter_input(a);
  auto input = [&](int b) { return ConstBlock{in, static_cast<std::size_t>(b) * n, n}; };
  ConstBlock partial = input(mod(r - 1, p));
  if (p == 1) partial = input(0);
  for (int k = 0; k < p - 1; ++k) {
    const Block incoming{t.scratch(), static_cast<std::size_t>(k % 2) * n, n};
    t.sendrecv(mod(r + 1, p), partial, mod(r - 1, p), incoming, k);
    t.reduce_local(incoming, input(mod(r - k - 2, p)));
    partial = incoming;
  }
  t.copy_local(Block{a.recv, 0, n}, partial);
}

// Recursive halving (MPICH MPIR_Reduce_scatter_block_intra_recursive_halving):
// log2 p' steps, each exchanging half of the current window of blocks with
// rank ^ 2^k and reducing the half kept. Extra ranks fold in first (their p
// blocks go to the odd partner, which then owns two result blocks and sends
// one back at the end); core ranks stand for contiguous runs of real ranks.
// Cost (p a power of two): log2(p) alpha + (p-1) n beta + (p-1) n gamma;
// otherwise add 2 alpha + (p+1) n beta + p n gamma for the fold.
template <transport::Transport T>
void reduce_scatter_recursive_halving(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count, pn = n * static_cast<std::size_t>(p);
  const Fold fold(p);
  const Partition part{pn, p};  // p equal blocks of n
  void* acc = t.scratch();
  auto tmp = [&](Block b) { return Block{t.scratch(), pn + b.offset, b.count}; };
  t.copy_local(Block{acc, 0, pn}, ConstBlock{detail::reduce_scatter_input(a), 0, pn});
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, Block{acc, 0, pn}, 0);
  if (fold.folded_in(r)) {
    t.recv(r - 1, tmp(Block{acc, 0, pn}), 0);
    t.reduce_local(Block{acc, 0, pn}, tmp(Block{acc, 0, pn}));
  }
  t.phase("recursive-halving");
  if (const int v = fold.vrank(r); v >= 0) {
    for_each_halving_step(fold.pof2, v, [&](const HalvingStep& s) {
      const int partner = fold.real(s.partner_v);
      const Block keep = part.blocks(acc, fold.first_real(s.keep_lo), fold.first_real(s.keep_hi));
      const Block give = part.blocks(acc, fold.first_real(s.give_lo), fold.first_real(s.give_hi));
      t.sendrecv(partner, give, partner, tmp(keep), s.step);
      t.reduce_local(keep, tmp(keep));
    });
  }
  t.phase("unfold");
  if (fold.folded_in(r)) t.send(r - 1, part.block(acc, r - 1), 0);
  if (fold.folded_out(r)) t.recv(r + 1, Block{a.recv, 0, n}, 0);
  else t.copy_local(Block{a.recv, 0, n}, part.block(acc, r));
}

// Pairwise exchange (MPICH MPIR_Reduce_scatter_block_intra_pairwise): in
// step i rank r sends block r+i to rank r+i and receives its own block from
// rank r-i, reducing it into an accumulator.
// Cost: (p-1) (alpha + n beta + n gamma).
template <transport::Transport T>
void reduce_scatter_pairwise(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count;
  const void* in = detail::reduce_scatter_input(a);
  const Block acc{t.scratch(), 0, n}, tmp{t.scratch(), n, n};
  t.copy_local(acc, ConstBlock{in, static_cast<std::size_t>(r) * n, n});
  for (int i = 1; i < p; ++i) {
    const int to = mod(r + i, p), from = mod(r - i, p);
    t.sendrecv(to, ConstBlock{in, static_cast<std::size_t>(to) * n, n}, from, tmp, i);
    t.reduce_local(acc, tmp);
  }
  t.copy_local(Block{a.recv, 0, n}, acc);
}

}  // namespace pico::reference
