// SPDX-License-Identifier: BSD-3-Clause
// Reference reduce_scatter algorithms, each written once over the blocks of
// the input vector: rank r receives the reduction of block r. reduce_scatter
// has MPI_Reduce_scatter_block's blocks (p of count elements), reduce_scatterv
// MPI_Reduce_scatter's (count elements in p blocks, as its descriptor splits
// them). In place, the input is the receive buffer (the whole vector) and the
// result lands at its start. Partial results live in scratch so that an
// in-place input is never overwritten before it is read. p = ranks.
#pragma once

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
inline const void* reduce_scatter_input(const CallArgs& a) { return a.in_place ? a.recv : a.send; }

// Ring: block b's partial sum starts at rank b+1 and travels p-1 hops to
// rank b, each rank adding its own contribution; two scratch blocks of the
// widest size alternate between the one being sent and the one being received.
template <transport::Transport T>
void reduce_scatter_ring(T& t, const CallArgs& a, const Partition& part) {
  const int p = t.size(), r = t.rank();
  const void* in = reduce_scatter_input(a);
  const std::size_t widest = part.size(0);
  ConstBlock partial = part.block(in, p == 1 ? 0 : mod(r - 1, p));
  for (int k = 0; k < p - 1; ++k) {
    const int b = mod(r - k - 2, p);  // the block whose partial sum arrives
    const Block incoming{t.scratch(), static_cast<std::size_t>(k % 2) * widest, part.size(b)};
    t.sendrecv(mod(r + 1, p), partial, mod(r - 1, p), incoming, k);
    t.reduce_local(incoming, part.block(in, b));
    partial = incoming;
  }
  t.copy_local(Block{a.recv, 0, part.size(r)}, partial);
}

// Recursive halving: log2 p' steps, each exchanging half of the current
// window of blocks with rank ^ 2^k and reducing the half kept. Extra ranks
// fold in first (their whole vector goes to the odd partner, which then owns
// two result blocks and sends one back at the end); core ranks stand for
// contiguous runs of real ranks.
template <transport::Transport T>
void reduce_scatter_recursive_halving(T& t, const CallArgs& a, const Partition& part) {
  const int p = t.size(), r = t.rank();
  const std::size_t all = part.n;
  const Fold fold(p);
  void* acc = t.scratch();
  auto tmp = [&](Block b) { return Block{t.scratch(), all + b.offset, b.count}; };
  t.copy_local(Block{acc, 0, all}, ConstBlock{reduce_scatter_input(a), 0, all});
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, Block{acc, 0, all}, 0);
  if (fold.folded_in(r)) {
    t.recv(r - 1, tmp(Block{acc, 0, all}), 0);
    t.reduce_local(Block{acc, 0, all}, tmp(Block{acc, 0, all}));
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
  if (fold.folded_out(r))
    t.recv(r + 1, Block{a.recv, 0, part.size(r)}, 0);
  else
    t.copy_local(Block{a.recv, 0, part.size(r)}, part.block(acc, r));
}

// Pairwise exchange: in step i rank r sends block r+i to rank r+i and
// receives its own block from rank r-i, reducing it into an accumulator.
template <transport::Transport T>
void reduce_scatter_pairwise(T& t, const CallArgs& a, const Partition& part) {
  const int p = t.size(), r = t.rank();
  const void* in = reduce_scatter_input(a);
  const std::size_t own = part.size(r);
  const Block acc{t.scratch(), 0, own}, tmp{t.scratch(), part.size(0), own};
  t.copy_local(acc, part.block(in, r));
  for (int i = 1; i < p; ++i) {
    const int to = mod(r + i, p), from = mod(r - i, p);
    t.sendrecv(to, part.block(in, to), from, tmp, i);
    t.reduce_local(acc, tmp);
  }
  t.copy_local(Block{a.recv, 0, own}, acc);
}

// MPI_Reduce_scatter_block's p blocks of count elements each.
inline Partition equal_blocks(const CallArgs& a, int p) { return {a.count * static_cast<std::size_t>(p), p}; }
// MPI_Reduce_scatter's count elements split as the reduce_scatterv
// descriptor splits them (collectives/reduce_scatterv.cpp): Partition's.
inline Partition split_vector(const CallArgs& a, int p) { return {a.count, p}; }
}  // namespace detail

// reduce_scatter (MPI_Reduce_scatter_block), n = bytes of one block.
// Ring. Cost: (p-1) alpha + (p-1) n beta + (p-1) n gamma.
template <transport::Transport T>
void reduce_scatter_ring(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_ring(t, a, detail::equal_blocks(a, t.size()));
}

// Recursive halving (MPICH MPIR_Reduce_scatter_block_intra_recursive_halving).
// Cost (p a power of two): log2(p) alpha + (p-1) n beta + (p-1) n gamma;
// otherwise add 2 alpha + (p+1) n beta + p n gamma for the fold.
template <transport::Transport T>
void reduce_scatter_recursive_halving(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_recursive_halving(t, a, detail::equal_blocks(a, t.size()));
}

// Pairwise exchange (MPICH MPIR_Reduce_scatter_block_intra_pairwise).
// Cost: (p-1) (alpha + n beta + n gamma).
template <transport::Transport T>
void reduce_scatter_pairwise(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_pairwise(t, a, detail::equal_blocks(a, t.size()));
}

// reduce_scatterv (MPI_Reduce_scatter), n = bytes of the whole vector, its
// blocks n/p each (one element more or less): the same three algorithms on
// the vector's blocks. Costs as above with n/p for n.
template <transport::Transport T>
void reduce_scatterv_ring(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_ring(t, a, detail::split_vector(a, t.size()));
}

// Recursive halving (MPICH MPIR_Reduce_scatter_intra_recursive_halving,
// Open MPI's basic_recursivehalving).
template <transport::Transport T>
void reduce_scatterv_recursive_halving(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_recursive_halving(t, a, detail::split_vector(a, t.size()));
}

// Pairwise exchange (MPICH MPIR_Reduce_scatter_intra_pairwise).
template <transport::Transport T>
void reduce_scatterv_pairwise(T& t, const CallArgs& a) {
  if (a.count != 0) detail::reduce_scatter_pairwise(t, a, detail::split_vector(a, t.size()));
}

}  // namespace pico::reference
