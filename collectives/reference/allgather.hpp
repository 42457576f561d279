// SPDX-License-Identifier: BSD-3-Clause
// Reference allgather algorithms: rank r's count elements end up as block r
// of every receive buffer (p blocks). In place, rank r's input is already
// block r of its receive buffer. n = bytes of one rank's block, p = ranks.
#pragma once

#include <algorithm>

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
template <transport::Transport T>
void allgather_own_block(T& t, const CallArgs& a) {
  const std::size_t r = static_cast<std::size_t>(t.rank());
  if (!a.in_place) t.copy_local(Block{a.recv, r * a.count, a.count}, ConstBlock{a.send, 0, a.count});
}
}  // namespace detail

// Ring (Open MPI coll_base_allgather_intra_ring): p-1 steps, each passing
// the block received last step on to the right neighbour.
// Cost: (p-1) alpha + (p-1) n beta.
template <transport::Transport T>
void allgather_ring(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  detail::allgather_own_block(t, a);
  const int p = t.size(), r = t.rank();
  const Partition part{a.count * static_cast<std::size_t>(p), p};
  for (int k = 0; k < p - 1; ++k)
    t.sendrecv(mod(r + 1, p), part.block(a.recv, mod(r - k, p)), mod(r - 1, p), part.block(a.recv, mod(r - k - 1, p)),
               k);
}

// Recursive doubling (MPICH MPIR_Allgather_intra_recursive_doubling for
// powers of two): log2 p exchanges of a doubling aligned run of blocks. For
// other p the extra ranks fold in first (each even rank of the first 2*rem
// gives its block to the odd rank above, which then stands for both) and get
// the whole buffer back at the end; core ranks stand for contiguous runs of
// real ranks, so every exchanged window is still one contiguous run.
// Cost (p a power of two): log2(p) alpha + (p-1) n beta;
// otherwise (log2(p') + 2) alpha + ((p-1) + 1 + p) n beta at the ranks that fold.
template <transport::Transport T>
void allgather_recursive_doubling(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  detail::allgather_own_block(t, a);
  const int p = t.size(), r = t.rank();
  const Fold fold(p);
  const Partition part{a.count * static_cast<std::size_t>(p), p};
  t.phase("fold");
  if (fold.folded_out(r)) t.send(r + 1, part.block(a.recv, r), 0);
  if (fold.folded_in(r)) t.recv(r - 1, part.block(a.recv, r - 1), 0);
  t.phase("recursive-doubling");
  if (const int v = fold.vrank(r); v >= 0) {
    for (int mask = 1, step = 1; mask < fold.pof2; mask <<= 1, ++step) {
      const int partner_v = v ^ mask;
      const int mine = v & ~(mask - 1), theirs = partner_v & ~(mask - 1);
      const int partner = fold.real(partner_v);
      t.sendrecv(partner, part.blocks(a.recv, fold.first_real(mine), fold.first_real(mine + mask)), partner,
                 part.blocks(a.recv, fold.first_real(theirs), fold.first_real(theirs + mask)), step);
    }
  }
  t.phase("unfold");
  if (fold.folded_in(r)) t.send(r - 1, part.blocks(a.recv, 0, p), 0);
  if (fold.folded_out(r)) t.recv(r + 1, part.blocks(a.recv, 0, p), 0);
}

// Bruck (Open MPI coll_base_allgather_intra_bruck): ceil(log2 p) steps; at
// distance d a rank sends the min(d, p-d) blocks it holds to rank - d. Blocks
// accumulate in scratch in the order r, r+1, ..., so a final rotation puts
// them in place. Optimal in latency for any p.
// Cost: ceil(log2 p) alpha + (p-1) n beta.
template <transport::Transport T>
void allgather_bruck(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count, pn = n * static_cast<std::size_t>(p), rn = n * static_cast<std::size_t>(r);
  void* tmp = t.scratch();
  const ConstBlock own = a.in_place ? ConstBlock{a.recv, rn, n} : ConstBlock{a.send, 0, n};
  t.copy_local(Block{tmp, 0, n}, own);
  int step = 0;
  for (std::int64_t d = 1; d < p; d <<= 1, ++step) {  // 64-bit: see barrier_dissemination
    const std::size_t blocks = static_cast<std::size_t>(std::min<std::int64_t>(d, p - d));
    t.sendrecv(mod(r - d, p), ConstBlock{tmp, 0, blocks * n}, mod(r + d, p),
               Block{tmp, static_cast<std::size_t>(d) * n, blocks * n}, step);
  }
  t.phase("rotate");
  t.copy_local(Block{a.recv, rn, pn - rn}, ConstBlock{tmp, 0, pn - rn});
  t.copy_local(Block{a.recv, 0, rn}, ConstBlock{tmp, pn - rn, rn});
}

}  // namespace pico::reference
