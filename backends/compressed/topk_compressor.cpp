#include "backends/compressed/topk_compressor.hpp"

#include <algorithm>
#include <cmath>

namespace pico::compressed {

TopkCompressor::TopkCompressor(const Setup& s)
    : ratio_(s.param("topk_ratio", 0.01)), error_feedback_(s.param("error_feedback", 1) != 0) {
  // At least one element of a non-empty vector, so every rank always sends something.
  const auto wanted = static_cast<std::size_t>(std::ceil(ratio_ * static_cast<double>(s.n)));
  k_ = std::min(s.n, std::max<std::size_t>(s.n == 0 ? 0 : 1, wanted));
  if (error_feedback_) {
    residual_.assign(s.n, 0.0f);
    corrected_.assign(s.n, 0.0f);
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
