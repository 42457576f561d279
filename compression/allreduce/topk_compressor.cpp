// SPDX-License-Identifier: BSD-3-Clause
#include "compression/allreduce/topk_compressor.hpp"

#include <algorithm>
#include <cmath>

namespace pico::compressed {

std::size_t topk_k(const Setup& s) {
  const auto wanted = static_cast<std::size_t>(std::ceil(s.param("topk_ratio", 0.01) * static_cast<double>(s.n)));
  return std::min(s.n, std::max<std::size_t>(s.n == 0 ? 0 : 1, wanted));
}

TopkCompressor::TopkCompressor(const Setup& s)
    : ratio_(s.param("topk_ratio", 0.01)), selection_(HostKernels{}, s.n, topk_k(s), topk_error_feedback(s)) {}

void TopkCompressor::replay(std::span<const float> x, std::span<float> replay) const {
  std::vector<std::uint32_t> indices(k());
  std::vector<float> values(k());
  topk_select(x, k(), indices, values, replay_scratch_);
  scatter_add(indices, values, replay);
}

nlohmann::json TopkCompressor::describe() const {
  return {{"topk_ratio", ratio_}, {"k", k()}, {"error_feedback", selection_.error_feedback()}};
}

}  // namespace pico::compressed
