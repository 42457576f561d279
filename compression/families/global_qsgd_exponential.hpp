// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD, exponential dithering: int8 codes of power-of-two levels, reduce-scattered
// as codes, each owned block decoded and summed exactly, then allgathered.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

class GlobalQsgdExponential final : public Phased<GlobalQsgdExponential> {
 public:
  explicit GlobalQsgdExponential(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  Setup setup_;
  std::size_t block_;               // elements each rank owns in the reduce-scatter: ceil(n / p)
  float scale_ = 0;
  std::vector<std::int8_t> codes_;  // p blocks, zero-padded past n
  std::vector<std::int8_t> gathered_;
  std::vector<float> partial_;      // the owned block's exact sum of decoded codes
  std::vector<std::int8_t> owned_;
};

}  // namespace pico::compressed
