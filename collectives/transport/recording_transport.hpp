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

struct RankSchedule {
  int rank = 0;
  std::vector<RecordedOp> ops;
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

  void send(int peer, ConstBlock b, int tag);
  void recv(int peer, Block b, int tag);
  void sendrecv(int to, ConstBlock s, int from, Block r, int tag);
  void post_send(int peer, ConstBlock b, int tag);
  void post_recv(int peer, Block b, int tag);
  void wait_all();
  void reduce_local(Block dst, ConstBlock src);
  void copy_local(Block dst, ConstBlock src);
  void phase(const char* name);

  // Throws std::logic_error if operations were posted and never waited for.
  void finish();

 private:
  void record(OpKind kind, int peer, ConstBlock b, int tag);
  void check_peer(int peer) const;
  void check_block(ConstBlock b, bool writable) const;
  void close_step();
  void require_no_posted(const char* what) const;

  int rank_;
  int size_;
  std::size_t element_;
  BufferCapacity capacity_;
  RankSchedule& out_;
  std::array<char, 3> markers_{};
  std::uint32_t step_ = 0;
  std::uint32_t step_begin_ = 0;  // first op of the current step
  std::uint32_t dep_begin_ = 0;   // the previous step's ops
  std::uint32_t dep_end_ = 0;
  bool posted_ = false;
  std::uint16_t phase_ = 0;
};

}  // namespace pico::transport
