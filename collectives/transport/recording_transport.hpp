// SPDX-License-Identifier: BSD-3-Clause
// Records what one rank of an algorithm would do, without MPI and without
// touching data: every message (peer, bytes, tag), every local reduction and
// copy, the step each belongs to and the steps it waits for. Running the
// algorithm once per rank, each with its own RecordingTransport, yields the
// whole P-rank schedule in one process.
//
// Buffers are placeholders: the transport hands out distinct addresses for
// the send, receive and scratch buffers, and checks that every block an
// algorithm names lies inside one of them (and never inside a buffer the rank
// passed as MPI_IN_PLACE), so a recorded schedule is also a bounds test.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectives/transport/block.hpp"

namespace pico::transport {

enum class OpKind : std::uint8_t { send, recv, reduce, copy };

// One recorded operation of one rank. Operations of the same step run
// concurrently (a sendrecv, or what was posted before a wait_all); each
// depends on every operation of the previous step of the same rank,
// the index range [dep_begin, dep_end) of that rank's operation list.
struct RecordedOp {
  OpKind kind;
  std::uint16_t phase;  // index into RankSchedule::phases
  std::int32_t peer;    // -1 for local operations
  std::int32_t tag;
  std::uint32_t step;
  std::uint64_t bytes;
  std::uint32_t dep_begin;
  std::uint32_t dep_end;
};

// Thrown by a recording that would pass its RankSchedule's max_ops: a caller
// that only needs to know whether a schedule fits stops there, before the
// operations of a 1 TiB segmented schedule (75 M a rank) fill memory.
struct OpLimitReached : std::runtime_error {
  OpLimitReached() : std::runtime_error("the schedule has more operations than the recording's limit") {}
};

struct RankSchedule {
  int rank = 0;
  std::vector<RecordedOp> ops;
  std::uint64_t max_ops = UINT64_MAX;  // recording past it throws OpLimitReached
  std::vector<std::string> phases{""};  // phase 0: before the first marker

  int source(const RecordedOp& op) const { return op.kind == OpKind::recv ? op.peer : rank; }
  int destination(const RecordedOp& op) const { return op.kind == OpKind::send ? op.peer : rank; }
};

// Element capacities of the three buffers a rank may use.
struct BufferCapacity {
  std::size_t send = 0;
  std::size_t recv = 0;
  std::size_t scratch = 0;
};

class RecordingTransport {
 public:
  // Records into `out`, which is cleared first (its memory is reused).
  RecordingTransport(int rank, int size, std::size_t element_bytes, BufferCapacity capacity, RankSchedule& out);

  // Placeholder buffers to put in the algorithm's arguments.
  const void* send_buffer() const { return &markers_[0]; }
  void* recv_buffer() { return &markers_[1]; }

  int rank() const { return rank_; }
  int size() const { return size_; }
  void* scratch() { return &markers_[2]; }

  // The calls below run billions of times when a large schedule is
  // exported, so their checks are inline and only the throws are out of line.
  void send(int peer, ConstBlock b, int tag) {
    require_no_posted("send");
    record(OpKind::send, peer, b, tag);
    close_step();
  }
  void recv(int peer, Block b, int tag) {
    require_no_posted("recv");
    record(OpKind::recv, peer, b, tag);
    close_step();
  }
  void sendrecv(int to, ConstBlock s, int from, Block r, int tag) {
    require_no_posted("sendrecv");
    record(OpKind::send, to, s, tag);
    record(OpKind::recv, from, r, tag);
    close_step();
  }
  void post_send(int peer, ConstBlock b, int tag) {
    record(OpKind::send, peer, b, tag);
    posted_ = true;
  }
  void post_recv(int peer, Block b, int tag) {
    record(OpKind::recv, peer, b, tag);
    posted_ = true;
  }
  void wait_all() {
    if (!posted_) return;
    posted_ = false;
    close_step();
  }
  void reduce_local(Block dst, ConstBlock src) {
    if (dst.count != src.count) fail_local("reduce_local: blocks of different lengths");
    if (dst.count != 0 && dst.base == src.base && dst.offset < src.offset + src.count &&
        src.offset < dst.offset + dst.count)
      fail_local("reduce_local: overlapping blocks");
    check_block(dst, true);
    record(OpKind::reduce, -1, src, 0);  // src is checked there
    if (!posted_) close_step();
  }
  void copy_local(Block dst, ConstBlock src) {
    if (dst.count != src.count) fail_local("copy_local: blocks of different lengths");
    check_block(dst, true);
    record(OpKind::copy, -1, src, 0);
    if (!posted_) close_step();
  }
  void phase(const char* name);

  // Throws std::logic_error if operations were posted and never waited for.
  void finish();

 private:
  void record(OpKind kind, int peer, ConstBlock b, int tag) {
    check_block(b, kind == OpKind::recv);  // what a receive names is written
    if (peer != -1 && (peer < 0 || peer >= size_ || peer == rank_)) fail_peer(peer);
    if (tag < 0) fail_tag(tag);
    if (out_.ops.size() >= out_.max_ops) throw OpLimitReached();
    out_.ops.push_back(RecordedOp{kind, phase_, peer, tag, step_, b.count * element_, dep_begin_, dep_end_});
  }
  void check_block(ConstBlock b, bool writable) const {
    if (b.count == 0) return;  // an empty block names no memory
    const std::size_t buffer = marker_index(b.base);
    if (buffer >= markers_.size() || (writable && buffer == 0)) fail_block(b, writable);
    const std::size_t capacity = capacities_[buffer];
    if (b.offset > capacity || b.count > capacity - b.offset) fail_block(b, writable);
  }
  // Which placeholder `base` is: 0 send, 1 receive, 2 scratch; anything else is
  // no buffer of this rank (addresses below the markers wrap to huge values).
  std::size_t marker_index(const void* base) const {
    return reinterpret_cast<std::uintptr_t>(base) - reinterpret_cast<std::uintptr_t>(markers_.data());
  }
  void close_step() {
    const auto end = static_cast<std::uint32_t>(out_.ops.size());
    if (end == step_begin_) return;
    dep_begin_ = step_begin_;
    dep_end_ = end;
    step_begin_ = end;
    ++step_;
  }
  void require_no_posted(const char* what) const {
    if (posted_) fail_posted(what);
  }
  // Throw std::logic_error naming the rank and what is wrong.
  [[noreturn]] void fail_local(const char* what) const;
  [[noreturn]] void fail_peer(int peer) const;
  [[noreturn]] void fail_tag(int tag) const;
  [[noreturn]] void fail_block(ConstBlock b, bool writable) const;
  [[noreturn]] void fail_posted(const char* what) const;

  int rank_;
  int size_;
  std::size_t element_;
  std::array<std::size_t, 3> capacities_;  // of the send, receive and scratch buffers
  RankSchedule& out_;
  std::array<char, 3> markers_{};  // their placeholder addresses, in that order
  std::uint32_t step_ = 0;
  std::uint32_t step_begin_ = 0;  // first op of the current step
  std::uint32_t dep_begin_ = 0;   // the previous step's ops
  std::uint32_t dep_end_ = 0;
  bool posted_ = false;
  std::uint16_t phase_ = 0;
};

}  // namespace pico::transport
