// SPDX-License-Identifier: BSD-3-Clause
// Reference alltoallv algorithms: rank r's block for q (send_counts[q]
// elements at send_displs[q]) ends up at recv_displs[r] of rank q, the counts
// from the case's count matrix (collectives/count_matrix.hpp). n_rq = bytes
// rank r sends rank q, p = ranks.
#pragma once

#include "collectives/count_matrix.hpp"
#include "collectives/reference/args.hpp"
#include "collectives/reference/layout.hpp"
#include "collectives/transport/transport.hpp"

namespace pico::reference {

namespace detail {
inline ConstBlock alltoallv_outgoing(const CallArgs& a, int to) {
  const auto i = static_cast<std::size_t>(to);
  return ConstBlock{a.send, a.layout->send_displs[i], a.layout->send_counts[i]};
}
inline Block alltoallv_incoming(const CallArgs& a, int from) {
  const auto i = static_cast<std::size_t>(from);
  return Block{a.recv, a.layout->recv_displs[i], a.layout->recv_counts[i]};
}
}  // namespace detail

// Pairwise exchange (Open MPI coll_base_alltoallv_intra_pairwise): in step i
// rank r sends to r+i and receives from r-i, one pair at a time, empty
// blocks included (the step is a synchronisation either way).
// Cost: sum over i of (alpha + max(n_{r,r+i}, n_{r-i,r}) beta): the largest
// block of each step sets its pace, so a hot rank slows every step it is in.
template <transport::Transport T>
void alltoallv_pairwise(T& t, const CallArgs& a) {
  const int p = t.size(), r = t.rank();
  t.copy_local(detail::alltoallv_incoming(a, r), detail::alltoallv_outgoing(a, r));
  for (int i = 1; i < p; ++i) {
    const int to = mod(r + i, p), from = mod(r - i, p);
    t.sendrecv(to, detail::alltoallv_outgoing(a, to), from, detail::alltoallv_incoming(a, from), i);
  }
}

// Linear (Open MPI coll_base_alltoallv_intra_basic_linear): post every
// non-empty receive and send at once and wait for all of them.
// Cost: (p-1) alpha + max(sum_q n_{r,q}, sum_q n_{q,r}) beta at the busiest rank's port.
template <transport::Transport T>
void alltoallv_linear(T& t, const CallArgs& a) {
  const int p = t.size(), r = t.rank();
  t.copy_local(detail::alltoallv_incoming(a, r), detail::alltoallv_outgoing(a, r));
  for (int i = 1; i < p; ++i) {
    const Block in = detail::alltoallv_incoming(a, mod(r - i, p));
    if (in.count != 0) t.post_recv(mod(r - i, p), in, 0);
  }
  for (int i = 1; i < p; ++i) {
    const ConstBlock out = detail::alltoallv_outgoing(a, mod(r + i, p));
    if (out.count != 0) t.post_send(mod(r + i, p), out, 0);
  }
  t.wait_all();
}

}  // namespace pico::reference
