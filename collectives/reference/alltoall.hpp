// SPDX-License-Identifier: BSD-3-Clause
// Reference alltoall algorithms: block j of rank i's send buffer ends up as
// block i of rank j's receive buffer. In place, the outgoing blocks are in
// the receive buffer; the algorithms copy them to scratch first, since
// incoming blocks would overwrite outgoing ones still to be sent.
// n = bytes of one block, p = ranks.
#pragma once

#include <algorithm>

#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
// Where the outgoing blocks are read from; copies them to scratch when in place.
template <transport::Transport T>
const void* alltoall_source(T& t, const CallArgs& a) {
  if (!a.in_place) return a.send;
  const std::size_t pn = a.count * static_cast<std::size_t>(t.size());
  t.copy_local(Block{t.scratch(), 0, pn}, ConstBlock{a.recv, 0, pn});
  return t.scratch();
}
}  // namespace detail

// Pairwise exchange (Open MPI coll_base_alltoall_intra_pairwise): in step i
// rank r sends to r+i and receives from r-i, one pair of messages at a time.
// Cost: (p-1) (alpha + n beta).
template <transport::Transport T>
void alltoall_pairwise(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const Partition part{a.count * static_cast<std::size_t>(p), p};
  const void* src = detail::alltoall_source(t, a);
  t.copy_local(part.block(a.recv, r), part.block(src, r));
  for (int i = 1; i < p; ++i) {
    const int to = mod(r + i, p), from = mod(r - i, p);
    t.sendrecv(to, part.block(src, to), from, part.block(a.recv, from), i);
  }
}

// Modified Bruck (Open MPI coll_base_alltoall_intra_bruck): rotate so that
// slot i holds the block for rank r+i, then for each bit d of the slot index
// send every slot with that bit set to rank r+d (packed into one message)
// and receive the same slots from rank r-d; finally slot i holds the block
// from rank r-i. ceil(log2 p) messages of about p/2 blocks each.
// Cost: ceil(log2 p) alpha + ceil(log2 p) (p/2) n beta, plus local copies.
template <transport::Transport T>
void alltoall_bruck(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const std::size_t n = a.count, pn = n * static_cast<std::size_t>(p), rn = n * static_cast<std::size_t>(r);
  const void* src = a.in_place ? a.recv : a.send;
  void* slots = t.scratch();
  auto packed = [&](int which, std::size_t off, std::size_t len) {
    return Block{t.scratch(), pn * static_cast<std::size_t>(1 + which) + off, len};
  };
  t.phase("rotate");
  t.copy_local(Block{slots, 0, pn - rn}, ConstBlock{src, rn, pn - rn});
  t.copy_local(Block{slots, pn - rn, rn}, ConstBlock{src, 0, rn});
  t.phase("exchange");
  int step = 0;
  for (std::int64_t d = 1; d < p; d <<= 1, ++step) {  // 64-bit: see barrier_dissemination
    // Slots with bit d set come in runs [k, k + d) for k = d, 3d, 5d, ...
    std::size_t packed_len = 0;
    for (std::int64_t k = d; k < p; k += 2 * d) {
      const std::size_t len = static_cast<std::size_t>(std::min<std::int64_t>(d, p - k)) * n;
      t.copy_local(packed(0, packed_len, len), ConstBlock{slots, static_cast<std::size_t>(k) * n, len});
      packed_len += len;
    }
    t.sendrecv(mod(r + d, p), packed(0, 0, packed_len), mod(r - d, p), packed(1, 0, packed_len), step);
    std::size_t at = 0;
    for (std::int64_t k = d; k < p; k += 2 * d) {
      const std::size_t len = static_cast<std::size_t>(std::min<std::int64_t>(d, p - k)) * n;
      t.copy_local(Block{slots, static_cast<std::size_t>(k) * n, len}, packed(1, at, len));
      at += len;
    }
  }
  t.phase("rotate");
  for (int i = 0; i < p; ++i)
    t.copy_local(Block{a.recv, static_cast<std::size_t>(mod(r - i, p)) * n, n},
                 ConstBlock{slots, static_cast<std::size_t>(i) * n, n});
}

// Linear (Open MPI coll_base_alltoall_intra_basic_linear): post every
// receive and every send at once and wait for all of them; the network
// sorts out the order.
// Cost: (p-1) alpha + (p-1) n beta (all messages in flight together).
template <transport::Transport T>
void alltoall_linear(T& t, const CallArgs& a) {
  if (a.count == 0) return;
  const int p = t.size(), r = t.rank();
  const Partition part{a.count * static_cast<std::size_t>(p), p};
  const void* src = detail::alltoall_source(t, a);
  t.copy_local(part.block(a.recv, r), part.block(src, r));
  for (int i = 1; i < p; ++i) t.post_recv(mod(r - i, p), part.block(a.recv, mod(r - i, p)), 0);
  for (int i = 1; i < p; ++i) t.post_send(mod(r + i, p), part.block(src, mod(r + i, p)), 0);
  t.wait_all();
}

}  // namespace pico::reference
