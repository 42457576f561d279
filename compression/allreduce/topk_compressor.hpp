// SPDX-License-Identifier: BSD-3-Clause
// Top-k selection with optional error feedback on the CPU, shared by the
// allgather and the SparCML variants: the generic TopkSelection
// (generic/topk.hpp) on host kernels, plus what the check needs (the replay
// of a first call) and the report (the parameters as applied).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/generic/topk.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

// k for s.n elements and s.params' topk_ratio: at least one element of a
// non-empty vector, so every rank always sends something.
std::size_t topk_k(const Setup& s);
// s.params' error_feedback (on unless 0).
inline bool topk_error_feedback(const Setup& s) { return s.param("error_feedback", 1) != 0; }

class TopkCompressor {
 public:
  explicit TopkCompressor(const Setup& s);

  std::size_t k() const { return selection_.k(); }
  // Selects this call's pairs of in (s.n elements) into indices/values (k
  // each, increasing index). With error feedback the feedback is inside the
  // compress phase (one fused pass: residual += in, select, zero what is sent).
  template <class Mark>
  void compress(std::span<const float> in, std::span<std::uint32_t> indices, std::span<float> values, Mark& mark) {
    selection_.select(in.data(), indices.data(), values.data(), mark);
  }
  TopkSelection<HostKernels>& selection() { return selection_; }
  // Adds the pairs compress() would send for x with no carried residual to
  // replay (the check's replay of a first call).
  void replay(std::span<const float> x, std::span<float> replay) const;
  void reset() { selection_.reset(); }
  nlohmann::json describe() const;

 private:
  double ratio_;
  TopkSelection<HostKernels> selection_;
  mutable TopkScratch replay_scratch_;
};

}  // namespace pico::compressed
