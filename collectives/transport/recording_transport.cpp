#include "collectives/transport/recording_transport.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace pico::transport {

RecordingTransport::RecordingTransport(int rank, int size, std::size_t element_bytes, BufferCapacity capacity,
                                       RankSchedule& out)
    : rank_(rank), size_(size), element_(element_bytes), capacity_(capacity), out_(out) {
  out_.rank = rank;
  out_.ops.clear();
  out_.phases.assign(1, "");
}

void RecordingTransport::send(int peer, ConstBlock b, int tag) {
  require_no_posted("send");
  record(OpKind::send, peer, b, tag);
  close_step();
}

void RecordingTransport::recv(int peer, Block b, int tag) {
  require_no_posted("recv");
  record(OpKind::recv, peer, b, tag);
  close_step();
}

void RecordingTransport::sendrecv(int to, ConstBlock s, int from, Block r, int tag) {
  require_no_posted("sendrecv");
  record(OpKind::send, to, s, tag);
  record(OpKind::recv, from, r, tag);
  close_step();
}

void RecordingTransport::post_send(int peer, ConstBlock b, int tag) {
  record(OpKind::send, peer, b, tag);
  posted_ = true;
}

void RecordingTransport::post_recv(int peer, Block b, int tag) {
  record(OpKind::recv, peer, b, tag);
  posted_ = true;
}

void RecordingTransport::wait_all() {
  if (!posted_) return;
  posted_ = false;
  close_step();
}

void RecordingTransport::reduce_local(Block dst, ConstBlock src) {
  if (dst.count != src.count) throw std::logic_error("reduce_local: blocks of different lengths");
  if (dst.count != 0 && dst.base == src.base && dst.offset < src.offset + src.count &&
      src.offset < dst.offset + dst.count)
    throw std::logic_error("reduce_local: overlapping blocks");
  check_block(dst, true);
  record(OpKind::reduce, -1, src, 0);  // src is checked there
  if (!posted_) close_step();
}

void RecordingTransport::copy_local(Block dst, ConstBlock src) {
  if (dst.count != src.count) throw std::logic_error("copy_local: blocks of different lengths");
  check_block(dst, true);
  record(OpKind::copy, -1, src, 0);
  if (!posted_) close_step();
}

void RecordingTransport::phase(const char* name) {
  out_.phases.emplace_back(name);
  phase_ = static_cast<std::uint16_t>(out_.phases.size() - 1);
}

void RecordingTransport::finish() { require_no_posted("the end of the algorithm"); }

void RecordingTransport::record(OpKind kind, int peer, ConstBlock b, int tag) {
  check_block(b, kind == OpKind::recv);  // what a receive names is written
  if (peer != -1) check_peer(peer);
  if (tag < 0) throw std::logic_error(fmt::format("rank {}: negative tag {}", rank_, tag));
  out_.ops.push_back(RecordedOp{kind, phase_, peer, tag, step_, b.count * element_, dep_begin_, dep_end_});
}

void RecordingTransport::check_peer(int peer) const {
  if (peer < 0 || peer >= size_ || peer == rank_)
    throw std::logic_error(fmt::format("rank {} of {}: bad peer {}", rank_, size_, peer));
}

void RecordingTransport::check_block(ConstBlock b, bool writable) const {
  if (b.count == 0) return;  // an empty block names no memory
  const char* name = nullptr;
  std::size_t capacity = 0;
  if (b.base == &markers_[0]) {
    name = "send";
    capacity = capacity_.send;
    if (writable) throw std::logic_error(fmt::format("rank {}: writes into its send buffer", rank_));
  } else if (b.base == &markers_[1]) {
    name = "receive";
    capacity = capacity_.recv;
  } else if (b.base == &markers_[2]) {
    name = "scratch";
    capacity = capacity_.scratch;
  } else {
    throw std::logic_error(fmt::format("rank {}: a block in a buffer it does not have (in place?)", rank_));
  }
  if (b.offset > capacity || b.count > capacity - b.offset)
    throw std::logic_error(fmt::format("rank {}: block [{}, {}) outside its {} buffer of {} elements", rank_,
                                       b.offset, b.offset + b.count, name, capacity));
}

void RecordingTransport::close_step() {
  const auto end = static_cast<std::uint32_t>(out_.ops.size());
  if (end == step_begin_) return;
  dep_begin_ = step_begin_;
  dep_end_ = end;
  step_begin_ = end;
  ++step_;
}

void RecordingTransport::require_no_posted(const char* what) const {
  if (posted_) throw std::logic_error(fmt::format("rank {}: {} while posted operations are pending", rank_, what));
}

}  // namespace pico::transport
