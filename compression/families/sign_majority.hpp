// SPDX-License-Identifier: BSD-3-Clause
// signSGD with majority vote.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

// signSGD with majority vote: one sign bit per element and one scale per
// rank (mean |x|) allgathered; out_i = mean of the scales * the majority sign
// (0 on a tie). Deterministic (the check replays it bit for bit) and biased.
class SignMajority final : public Phased<SignMajority> {
 public:
  explicit SignMajority(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return {{"bits", 1}, {"scale", "mean |x| per rank"}}; }
  bool replays() const override { return true; }
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  void finish_replay(std::span<float> replay) const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override {
    return count_unequal_bits(out, ref.replay);
  }

 private:
  Setup setup_;
  std::size_t message_;                 // 4-byte scale, then ceil(n / 8) bytes of sign bits
  std::vector<std::byte> gathered_;     // p messages
  std::vector<std::uint16_t> negative_; // votes for a negative sign, per element
  mutable float replay_scale_sum_ = 0;  // the replay's sum of the ranks' scales, in rank order
};

}  // namespace pico::compressed
