// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/transport/recording_transport.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace pico::transport {

RecordingTransport::RecordingTransport(int rank, int size, std::size_t element_bytes, BufferCapacity capacity,
                                       RankSchedule& out)
    : rank_(rank), size_(size), element_(element_bytes), capacities_{capacity.send, capacity.recv, capacity.scratch},
      out_(out) {
  out_.rank = rank;
  out_.ops.clear();
  out_.phases.assign(1, "");
}

void RecordingTransport::phase(const char* name) {
  out_.phases.emplace_back(name);
  phase_ = static_cast<std::uint16_t>(out_.phases.size() - 1);
}

void RecordingTransport::finish() { require_no_posted("the end of the algorithm"); }

void RecordingTransport::fail_local(const char* what) const {
  throw std::logic_error(fmt::format("rank {}: {}", rank_, what));
}

void RecordingTransport::fail_peer(int peer) const {
  throw std::logic_error(fmt::format("rank {} of {}: bad peer {}", rank_, size_, peer));
}

void RecordingTransport::fail_tag(int tag) const {
  throw std::logic_error(fmt::format("rank {}: negative tag {}", rank_, tag));
}

void RecordingTransport::fail_block(ConstBlock b, bool writable) const {
  static constexpr const char* kNames[] = {"send", "receive", "scratch"};
  const std::size_t buffer = marker_index(b.base);
  if (buffer >= markers_.size())
    throw std::logic_error(fmt::format("rank {}: a block in a buffer it does not have (in place?)", rank_));
  if (writable && buffer == 0) throw std::logic_error(fmt::format("rank {}: writes into its send buffer", rank_));
  throw std::logic_error(fmt::format("rank {}: block [{}, {}) outside its {} buffer of {} elements", rank_, b.offset,
                                     b.offset + b.count, kNames[buffer], capacities_[buffer]));
}

void RecordingTransport::fail_posted(const char* what) const {
  throw std::logic_error(fmt::format("rank {}: {} while posted operations are pending", rank_, what));
}

}  // namespace pico::transport
