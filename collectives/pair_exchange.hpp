// SPDX-License-Identifier: BSD-3-Clause
// Which messages of a recorded step are a pair exchange: the rank both sends
// to and receives from that peer in the step (recursive doubling, pairwise,
// Bruck's steps where r + d and r - d are one rank). A simulator may charge
// them more than LogGP does (LogGPParams::exchange_factor): on a shaped
// TCP link a same-pair exchange was measured at 57% of the link rate each
// way, while distinct partners got the full rate (docs/simulation.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "collectives/transport/recording_transport.hpp"

namespace pico {

class PairExchanges {
 public:
  // Learns the step [begin, end). Keeps its buffers between steps.
  void scan(const transport::RecordedOp* begin, const transport::RecordedOp* end) {
    sends_.clear();
    recvs_.clear();
    for (const transport::RecordedOp* op = begin; op != end; ++op) {
      if (op->kind == transport::OpKind::send) sends_.push_back(op->peer);
      if (op->kind == transport::OpKind::recv) recvs_.push_back(op->peer);
    }
    std::sort(sends_.begin(), sends_.end());
    std::sort(recvs_.begin(), recvs_.end());
  }
  // Whether `op` of the step scanned last sends to a peer it also receives from, or the reverse.
  bool contains(const transport::RecordedOp& op) const {
    if (op.kind == transport::OpKind::send) return std::binary_search(recvs_.begin(), recvs_.end(), op.peer);
    if (op.kind == transport::OpKind::recv) return std::binary_search(sends_.begin(), sends_.end(), op.peer);
    return false;
  }
  // The bytes a simulator charges for `op`: `factor` times its own in a pair exchange.
  std::uint64_t charged_bytes(const transport::RecordedOp& op, double factor) const {
    if (factor == 1 || !contains(op)) return op.bytes;
    return static_cast<std::uint64_t>(static_cast<double>(op.bytes) * factor + 0.5);
  }

 private:
  std::vector<std::int32_t> sends_, recvs_;
};

}  // namespace pico
