// SPDX-License-Identifier: BSD-3-Clause
// PowerSGD: rank-r power iteration with error feedback and warm start.
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

// PowerSGD (Vogels, Karimireddy, Jaggi, NeurIPS'19): x + residual viewed as a
// rows x cols matrix M (low_rank_shape), P = M Q summed by MPI_Allreduce,
// orthonormalised, Q = M^T P summed by a second MPI_Allreduce, result
// P Q^T / p; each rank keeps M - P (M^T P)^T as its residual, and the summed
// Q is the next call's starting Q (warm start). Not bit-reproducible by a
// replay (the float sums are the library's), so the check holds the result to
// the projection of the exact mean onto P's columns, within fp32 rounding.
class PowerSgd final : public Phased<PowerSgd> {
 public:
  explicit PowerSgd(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  void reset() override;
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;
  // What error feedback carries into the next call (for tests).
  std::span<const float> residual() const { return std::span(matrix_).first(setup_.n); }

 private:
  Setup setup_;
  LowRankShape shape_;
  bool error_feedback_;
  std::size_t full_cols_;        // columns lying wholly inside the n elements
  std::vector<float> matrix_;    // M, then the residual (zero past n)
  std::vector<float> p_;         // rows x rank: summed, then orthonormal
  std::vector<float> q_;         // cols x rank: the sum over ranks, kept for the next call
  std::vector<float> q_local_;   // cols x rank: this rank's M^T P
  std::vector<float> scratch_;   // the QR's
  std::vector<float> tail_;      // the last, partial column of the result
};

}  // namespace pico::compressed
