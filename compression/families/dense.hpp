// SPDX-License-Identifier: BSD-3-Clause
// Dense: the float32 SUM allreduce of the MPI library, then 1/p (the baseline).
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/generic/dense.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

class Dense final : public Phased<Dense> {
 public:
  explicit Dense(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return nlohmann::json::object(); }
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  Setup setup_;
  DenseAllreduce<MpiCollectives, HostKernels> algorithm_;
};

}  // namespace pico::compressed
