// SPDX-License-Identifier: BSD-3-Clause
// Top-k: every rank's k largest |x| (with error feedback) allgathered as pairs.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/generic/topk.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"
#include "compression/allreduce/replayed_mean.hpp"
#include "compression/allreduce/topk_compressor.hpp"

namespace pico::compressed {

// What the Top-k variants share: the compressor, and a replayed mean.
template <class Derived>
class TopkFamily : public ReplayedMean<Derived> {
 public:
  explicit TopkFamily(const Setup& s) : ReplayedMean<Derived>(s.np), setup_(s), compressor_(s) {}
  void reset() override { compressor_.reset(); }
  void replay_rank(std::span<const float> x, std::span<float> replay) const override { compressor_.replay(x, replay); }

 protected:
  Setup setup_;
  TopkCompressor compressor_;
};

// Allgather of every rank's (index, value) pairs, then a scatter-add (generic/topk.hpp).
class Topk final : public TopkFamily<Topk> {
 public:
  explicit Topk(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return compressor_.describe(); }

 private:
  TopkAllgather<MpiCollectives, HostKernels> algorithm_;  // over compressor_'s selection
};

}  // namespace pico::compressed
