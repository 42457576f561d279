// SPDX-License-Identifier: BSD-3-Clause
// Random-k with a shared seed.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

// Random-k with a shared seed: every rank keeps the same Bernoulli(q) subset
// of positions (the call's shared Philox stream), so the kept values add in
// a plain float SUM allreduce of m ~ q n floats; out = sum / (p q) there, 0
// elsewhere: unbiased over seeds, at a variance of (1/q - 1) x^2 per element.
class RandomK final : public Phased<RandomK> {
 public:
  explicit RandomK(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  // The stream all ranks share for call `call`: above every rank's rank_stream.
  RandomStream shared_stream(std::uint64_t call) const;
  Setup setup_;
  float keep_;
  std::vector<std::uint32_t> indices_;
  std::vector<float> values_;
  std::size_t kept_ = 0;  // on the last call
};

}  // namespace pico::compressed
