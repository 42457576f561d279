#include "backends/compressed/topk_compressor.hpp"

#include <algorithm>
#include <cmath>

namespace pico::compressed {

std::size_t topk_k(const Setup& s) {
  const auto wanted = static_cast<std::size_t>(std::ceil(s.param("topk_ratio", 0.01) * static_cast<double>(s.n)));
  return std::min(s.n, std::max<std::size_t>(s.n == 0 ? 0 : 1, wanted));
}

TopkCompressor::TopkCompressor(const Setup& s)
    : k_(topk_k(s)), ratio_(s.param("topk_ratio", 0.01)), error_feedback_(topk_error_feedback(s)) {
  if (error_feedback_) {
    residual_.assign(s.n, 0.0f);
  }
}

void TopkCompressor::replay(std::span<const float> x, std::span<float> replay) const {
  std::vector<std::uint32_t> indices(k_);
  std::vector<float> values(k_);
  topk_select(x, k_, indices, values, replay_scratch_);
  scatter_add(indices, values, replay);
}

void TopkCompressor::reset() { std::fill(residual_.begin(), residual_.end(), 0.0f); }

nlohmann::json TopkCompressor::describe() const {
  return {{"topk_ratio", ratio_}, {"k", k_}, {"error_feedback", error_feedback_}};
}

}  // namespace pico::compressed
