// SPDX-License-Identifier: BSD-3-Clause
// What an algorithm may do: talk to a peer, combine or copy blocks locally,
// and mark phases. Algorithms are templates over this concept, so the same
// source runs on MPI (MpiTransport) and is recorded for export and byte
// accounting (RecordingTransport).
//
// Blocking operations (send, recv, sendrecv) complete before the next one
// starts. post_send/post_recv start operations that complete together at the
// next wait_all; local operations issued between a post and the wait_all
// overlap with that communication. Tags are small non-negative integers that
// sender and receiver agree on.
#pragma once

#include <concepts>

#include "collectives/transport/block.hpp"

namespace pico::transport {

template <class T>
concept Transport = requires(T t, const T ct, Block b, ConstBlock cb, int peer, int tag, const char* name) {
  { ct.rank() } -> std::same_as<int>;
  { ct.size() } -> std::same_as<int>;
  t.send(peer, cb, tag);
  t.recv(peer, b, tag);
  t.sendrecv(peer, cb, peer, b, tag);
  t.post_send(peer, cb, tag);
  t.post_recv(peer, b, tag);
  t.wait_all();
  t.reduce_local(b, cb);  // b = b op cb, element-wise, equal counts
  t.copy_local(b, cb);
  t.phase(name);
  { t.scratch() } -> std::same_as<void*>;  // base of the scratch space reserved in setup
};

}  // namespace pico::transport
