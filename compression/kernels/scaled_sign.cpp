// SPDX-License-Identifier: BSD-3-Clause
// EF-signSGD's compression (Karimireddy, Rebjock, Stich, Jaggi, ICML'19):
// the l1-scaled sign of the error-corrected vector, with what the scaled sign
// did not carry kept for the next call. Three passes: correct and sum |p|
// (a double sum in index order, so a replay gets the same scale), pack the
// sign bits, subtract the sent value from the residual.
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "compression/kernels/kernels.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

PICO_VECTOR_CLONES void subtract_scaled_sign(float* residual, std::size_t n, float scale) {
  for (std::size_t i = 0; i < n; ++i) residual[i] -= residual[i] < 0.0f ? -scale : scale;
}

// -scale by flipping the sign bit (the same bits as negation): integer
// shifts and an xor vectorise, where a select between two floats did not
// (5-10x slower here).
PICO_VECTOR_CLONES void accumulate_whole_bytes(const unsigned char* bits, std::size_t bytes, float scale, float* acc) {
  const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(scale);
  for (std::size_t b = 0; b < bytes; ++b) {
    for (unsigned j = 0; j < 8; ++j) {
      const std::uint32_t sign = static_cast<std::uint32_t>((bits[b] >> j) & 1u) << 31;
      acc[8 * b + j] += std::bit_cast<float>(magnitude ^ sign);
    }
  }
}

}  // namespace

float mean_abs(std::span<const float> x) {
  double l1 = 0;
  for (const float v : x) l1 += std::fabs(static_cast<double>(v));
  return x.empty() ? 0.0f : static_cast<float>(l1 / static_cast<double>(x.size()));
}

float scaled_sign_with_residual(std::span<const float> x, std::span<float> residual, std::span<unsigned char> bits) {
  if (residual.size() != x.size()) throw std::invalid_argument("scaled_sign_with_residual: residual size");
  add_residual(x, residual, residual);
  const float scale = mean_abs(residual);
  pack_signs(residual, bits);
  subtract_scaled_sign(residual.data(), residual.size(), scale);
  return scale;
}

void accumulate_signs(std::span<const unsigned char> bits, float scale, std::span<float> acc) {
  const std::size_t whole = acc.size() / 8;
  if (bits.size() < (acc.size() + 7) / 8) throw std::invalid_argument("accumulate_signs: bits shorter than ceil(n / 8)");
  accumulate_whole_bytes(bits.data(), whole, scale, acc.data());
  for (std::size_t i = 8 * whole; i < acc.size(); ++i) acc[i] += ((bits[i / 8] >> (i % 8)) & 1u) != 0 ? -scale : scale;
}

}  // namespace pico::compressed
