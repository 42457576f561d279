// SPDX-License-Identifier: BSD-3-Clause
// The base of the families whose result is a deterministic function of the
// inputs (Top-k and its kin, hard threshold, EF-sign): the check replays it.
#pragma once

#include "compression/allreduce/compressed_allreduce.hpp"

namespace pico::compressed {

// A result that is a deterministic function of the inputs: every rank's
// contribution (replay_rank, the derived class's) summed in rank order, then
// 1/p; the check replays it and compares bit for bit.
template <class Derived>
class ReplayedMean : public Phased<Derived> {
 public:
  explicit ReplayedMean(int np) : inv_np_(1.0f / static_cast<float>(np)) {}
  bool replays() const final { return true; }
  void finish_replay(std::span<float> replay) const final { scale_by(replay, inv_np_); }
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const final {
    return count_unequal_bits(out, ref.replay);
  }

 private:
  float inv_np_;
};

}  // namespace pico::compressed
