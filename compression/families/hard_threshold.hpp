// SPDX-License-Identifier: BSD-3-Clause
// Hard-threshold sparsification with error feedback.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"
#include "compression/allreduce/replayed_mean.hpp"

namespace pico::compressed {

// Hard-threshold sparsification with error feedback (Sahu et al.,
// NeurIPS'21): every entry of x + residual with magnitude >= `threshold` is
// sent as an (index, value) pair; counts vary by rank and call, so an
// allgather of the counts precedes an allgatherv of the pairs; scatter-added
// in rank order, then 1/p. Deterministic: the check replays it bit for bit.
class Threshold final : public ReplayedMean<Threshold> {
 public:
  explicit Threshold(const Setup& s);
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
  float threshold_;
  bool error_feedback_;
  std::vector<float> residual_;
  std::vector<std::uint32_t> indices_;  // this rank's pairs (room for n)
  std::vector<float> values_;
  std::vector<int> counts_, displs_;    // every rank's message in bytes (k indices, then k values)
  std::unique_ptr<std::byte[]> gathered_;  // room for every rank sending all n pairs
  std::vector<SparseList> lists_;
  std::vector<std::size_t> cursors_;
  std::uint64_t sent_total_ = 0;        // pairs sent by all ranks on the last call
};

}  // namespace pico::compressed
