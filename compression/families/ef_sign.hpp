// SPDX-License-Identifier: BSD-3-Clause
// EF-signSGD: scaled signs with error feedback.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <algorithm>
#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"
#include "compression/allreduce/replayed_mean.hpp"

namespace pico::compressed {

// EF-signSGD (Karimireddy et al., ICML'19): each rank sends the sign bits of
// p = x + residual and one scale, mean |p|, and keeps p - scale sign(p);
// allgathered, and the mean of the p scaled signs (summed in rank order,
// then 1/p) is the result: an average of compressed vectors, not a vote.
// Deterministic: the check replays it bit for bit.
class EfSign final : public ReplayedMean<EfSign> {
 public:
  explicit EfSign(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  void reset() override { std::fill(residual_.begin(), residual_.end(), 0.0f); }
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  // What error feedback carries into the next call (for tests).
  std::span<const float> residual() const { return residual_; }

 private:
  Setup setup_;
  bool error_feedback_;
  std::size_t message_;              // 4-byte scale, then ceil(n / 8) bytes of sign bits
  std::vector<std::byte> gathered_;  // p messages
  std::vector<float> residual_;      // with error feedback; else the input's copy
};

}  // namespace pico::compressed
