// Top-k selection with optional error feedback, shared by the allgather and
// the SparCML variants. With error feedback each call compresses
// corrected = x + r and keeps r = corrected - sent for the next call, so
// nothing is lost, only delayed (sent + r = corrected exactly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/compressed/compressed_allreduce.hpp"
#include "collectives/compressed/kernels.hpp"

namespace pico::compressed {

// k for s.n elements and s.params' topk_ratio: at least one element of a
// non-empty vector, so every rank always sends something.
std::size_t topk_k(const Setup& s);
// s.params' error_feedback (on unless 0).
inline bool topk_error_feedback(const Setup& s) { return s.param("error_feedback", 1) != 0; }

class TopkCompressor {
 public:
  explicit TopkCompressor(const Setup& s);

  std::size_t k() const { return k_; }
  // Selects this call's pairs into indices/values (k each, increasing index).
  template <class Mark>
  void compress(std::span<const float> in, std::span<std::uint32_t> indices, std::span<float> values, Mark& mark) {
    mark("compress");
    if (error_feedback_) {
      // One pass: residual += in, select on it, zero what is sent (the
      // error feedback is inside the compress phase now).
      topk_select_with_residual(in, residual_, k_, indices, values, scratch_);
    } else {
      topk_select(in, k_, indices, values, scratch_);
    }
  }
  // Adds the pairs compress() would send for x with no carried residual to
  // replay (the check's replay of a first call).
  void replay(std::span<const float> x, std::span<float> replay) const;
  void reset();
  nlohmann::json describe() const;

 private:
  std::size_t k_;
  double ratio_;
  bool error_feedback_;
  std::vector<float> residual_;
  TopkScratch scratch_;
  mutable TopkScratch replay_scratch_;
};

}  // namespace pico::compressed
