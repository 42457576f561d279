// SPDX-License-Identifier: BSD-3-Clause
// Reference allreduce algorithms. Costs use the alpha-beta-gamma model:
// alpha per message, beta per byte sent, gamma per byte reduced, n = the
// message size in bytes (count x dtype size), p = ranks. All work in the
// receive buffer, which first receives a copy of the input (unless in place).
#pragma once

#include <algorithm>

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/reference/trees.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

// Recursive doubling (Open MPI coll_base_allreduce_intra_recursivedoubling):
// log2 p exchanges of the whole vector with rank ^ 2^k. Extra ranks beyond a
// power of two fold in first (their vector goes to a partner) and get the
// result back at the end.
// Cost (p a power of two): log2(p) alpha + log2(p) n beta + log2(p) n gamma;
// otherwise (log2(p') + 2) alpha + (log2(p') + 2) n beta + (log2(p') + 1) n gamma, p' = floor_pow2(p).
template <transport::Transport T>
void allreduce_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const Block all = input_in_recv(t, a);
  const Fold fold(t.size());
  const int r = t.rank();
  const Block tmp{t.scratch(), 0, a.count};
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, all, 0);
  if (fold.folded_in(r)) {
    t.recv(r - 1, tmp, 0);
    t.reduce_local(all, tmp);
  }
  t.phase("recursive-doubling");
  if (const int v = fold.vrank(r); v >= 0) {
    for (int mask = 1, step = 1; mask < fold.pof2; mask <<= 1, ++step) {
      const int partner = fold.real(v ^ mask);
      t.sendrecv(partner, all, partner, tmp, step);
      t.reduce_local(all, tmp);
    }
  }
  t.phase("unfold");
  if (fold.folded_in(r)) t.send(r - 1, all, 0);
  if (fold.folded_out(r)) t.recv(r + 1, all, 0);
}

// Ring (Patarasuk & Yuan; Open MPI coll_base_allreduce_intra_ring): p blocks
// of about n/p; p-1 reduce-scatter steps around the ring, after which rank r
// owns the sum of block r+1, then p-1 allgather steps.
// Cost: 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma.
template <transport::Transport T>
void allreduce_ring(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  input_in_recv(t, a);
  const int p = t.size(), r = t.rank();
  if (p == 1) return;
  const Partition part{a.count, p};
  const int right = mod(r + 1, p), left = mod(r - 1, p);
  t.phase("reduce-scatter");
  for (int k = 0; k < p - 1; ++k) {
    const int out = mod(r - k, p), in = mod(r - k - 1, p);
    const Block tmp{t.scratch(), 0, part.size(in)};
    t.sendrecv(right, part.block(a.recv, out), left, tmp, k);
    t.reduce_local(part.block(a.recv, in), tmp);
  }
  t.phase("allgather");
  for (int k = 0; k < p - 1; ++k) {
    const int out = mod(r + 1 - k, p), in = mod(r - k, p);
    t.sendrecv(right, part.block(a.recv, out), left, part.block(a.recv, in), p - 1 + k);
  }
}

// Rabenseifner (MPICH MPIR_Allreduce_intra_reduce_scatter_allgather):
// reduce-scatter by recursive halving, then allgather by recursive doubling,
// over p' = floor_pow2(p) blocks on the power-of-two core; extra ranks fold
// in first and get the result back at the end.
// Cost (p a power of two): 2 log2(p) alpha + 2(p-1)/p n beta + (p-1)/p n gamma;
// otherwise add 2 alpha + 2 n beta + n gamma for the fold.
template <transport::Transport T>
void allreduce_rabenseifner(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const Block all = input_in_recv(t, a);
  const Fold fold(t.size());
  const int r = t.rank();
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, all, 0);
  if (fold.folded_in(r)) {
    const Block tmp{t.scratch(), 0, a.count};
    t.recv(r - 1, tmp, 0);
    t.reduce_local(all, tmp);
  }
  if (const int v = fold.vrank(r); v >= 0) {
    const Partition part{a.count, fold.pof2};
    // Reduce-scatter: halve the window of blocks each step, keeping the half that holds block v.
    t.phase("reduce-scatter");
    int step = for_each_halving_step(fold.pof2, v, [&](const HalvingStep& s) {
      const int partner = fold.real(s.partner_v);
      const Block tmp = part.blocks(t.scratch(), s.keep_lo, s.keep_hi);
      t.sendrecv(partner, part.blocks(a.recv, s.give_lo, s.give_hi), partner, tmp, s.step);
      t.reduce_local(part.blocks(a.recv, s.keep_lo, s.keep_hi), tmp);
    });
    // Allgather: the reverse, doubling the aligned window around block v.
    t.phase("allgather");
    for (int mask = 1; mask < fold.pof2; mask <<= 1, ++step) {
      const int partner_v = v ^ mask;
      const int mine = v & ~(mask - 1), theirs = partner_v & ~(mask - 1);
      t.sendrecv(fold.real(partner_v), part.blocks(a.recv, mine, mine + mask), fold.real(partner_v),
                 part.blocks(a.recv, theirs, theirs + mask), step);
    }
  }
  t.phase("unfold");
  if (fold.folded_in(r)) t.send(r - 1, all, 0);
  if (fold.folded_out(r)) t.recv(r + 1, all, 0);
}

// Binomial reduce to rank 0 followed by a binomial broadcast from it.
// Cost: 2 ceil(log2 p) alpha + 2 ceil(log2 p) n beta + ceil(log2 p) n gamma.
template <transport::Transport T>
void allreduce_reduce_bcast(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const Block all = input_in_recv(t, a);
  t.phase("reduce");
  binomial_reduce(t, all, all, Block{t.scratch(), 0, a.count}, 0, 0);
  t.phase("bcast");
  binomial_bcast(t, all, 0, 1);
}

// Segmented ring (Open MPI coll_base_allreduce_intra_ring_segmented): the
// ring above with each block cut into segments of a.segment elements; in
// the reduce-scatter, segment j+1 travels while segment j is reduced (two
// segment buffers), so the reduction hides behind communication and the
// working set stays one segment. Every block is cut into the same number of
// segments (that of the largest block), so neighbours always agree.
// Cost: 2(p-1) s alpha + 2(p-1)/p n beta + (p-1)/p n gamma, s = ceil(n / (p x segment)) segments per block.
template <transport::Transport T>
void allreduce_segmented_ring(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  input_in_recv(t, a);
  const int p = t.size(), r = t.rank();
  if (p == 1) return;
  const Partition part{a.count, p};
  const std::size_t largest = part.size(0);
  const std::size_t seg = a.segment == 0 ? largest : std::min(a.segment, largest);
  const int segments = static_cast<int>(std::max<std::size_t>(1, ceil_div(largest, seg)));
  // Segment j of a block: elements [j*seg, (j+1)*seg) clipped to the block (possibly empty).
  auto piece = [&](int b, int j) {
    const std::size_t lo = std::min(part.size(b), static_cast<std::size_t>(j) * seg);
    const std::size_t hi = std::min(part.size(b), lo + seg);
    return Block{a.recv, part.offset(b) + lo, hi - lo};
  };
  auto slot = [&](int j, std::size_t n) { return Block{t.scratch(), static_cast<std::size_t>(j % 2) * seg, n}; };
  const int right = mod(r + 1, p), left = mod(r - 1, p);
  t.phase("reduce-scatter");
  for (int k = 0; k < p - 1; ++k) {
    const int out = mod(r - k, p), in = mod(r - k - 1, p);
    t.post_recv(left, slot(0, piece(in, 0).count), k);
    t.post_send(right, piece(out, 0), k);
    t.wait_all();
    for (int j = 0; j < segments; ++j) {
      if (j + 1 < segments) {
        t.post_recv(left, slot(j + 1, piece(in, j + 1).count), k);
        t.post_send(right, piece(out, j + 1), k);
      }
      t.reduce_local(piece(in, j), slot(j, piece(in, j).count));
      t.wait_all();
    }
  }
  t.phase("allgather");
  for (int k = 0; k < p - 1; ++k) {
    const int out = mod(r + 1 - k, p), in = mod(r - k, p);
    for (int j = 0; j < segments; ++j) t.sendrecv(right, piece(out, j), left, piece(in, j), p - 1 + k);
  }
}

}  // namespace pico::reference
