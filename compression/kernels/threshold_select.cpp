// SPDX-License-Identifier: BSD-3-Clause
// Hard-threshold sparsification (Sahu, Dutta, Abdelmoniem, Banerjee, Canini,
// Kalnis, NeurIPS'21): one fixed magnitude decides what is sent, so how much
// travels follows the gradient (and the residual) rather than a fixed k. One
// pass: the corrected value is formed, tested and either emitted (residual 0)
// or kept (residual = corrected), so sent + residual == corrected exactly.
// The append is branch-free (always write, advance on a hit), as random-k's.
#include <cmath>
#include <stdexcept>

#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

namespace {

void require_room(std::size_t n, std::span<std::uint32_t> indices, std::span<float> values, const char* what) {
  if (indices.size() < n || values.size() < n) throw std::invalid_argument(what);
}

}  // namespace

std::size_t threshold_select_with_residual(std::span<const float> x, std::span<float> residual, float threshold,
                                           std::span<std::uint32_t> indices, std::span<float> values) {
  if (residual.size() != x.size()) throw std::invalid_argument("threshold_select_with_residual: residual size");
  require_room(x.size(), indices, values, "threshold_select_with_residual: indices/values shorter than x");
  std::size_t sent = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float corrected = x[i] + residual[i];
    const bool send = std::fabs(corrected) >= threshold;
    indices[sent] = static_cast<std::uint32_t>(i);
    values[sent] = corrected;
    residual[i] = send ? 0.0f : corrected;
    sent += send ? 1 : 0;
  }
  return sent;
}

std::size_t threshold_select(std::span<const float> x, float threshold, std::span<std::uint32_t> indices,
                             std::span<float> values) {
  require_room(x.size(), indices, values, "threshold_select: indices/values shorter than x");
  std::size_t sent = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    indices[sent] = static_cast<std::uint32_t>(i);
    values[sent] = x[i];
    sent += std::fabs(x[i]) >= threshold ? 1 : 0;
  }
  return sent;
}

}  // namespace pico::compressed
