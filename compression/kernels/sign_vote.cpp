// SPDX-License-Identifier: BSD-3-Clause
// Sign compression's bit packing and vote counting, byte at a time with the
// eight bits as a fixed inner loop, so the default build vectorises them.
#include <stdexcept>

#include "compression/kernels/kernels.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

PICO_VECTOR_CLONES void pack_whole_bytes(const float* x, std::size_t bytes, unsigned char* bits) {
  for (std::size_t b = 0; b < bytes; ++b) {
    unsigned byte = 0;
    for (unsigned j = 0; j < 8; ++j) byte |= (x[8 * b + j] < 0.0f ? 1u : 0u) << j;
    bits[b] = static_cast<unsigned char>(byte);
  }
}

PICO_VECTOR_CLONES void count_whole_bytes(const unsigned char* bits, std::size_t bytes, std::uint16_t* counts) {
  for (std::size_t b = 0; b < bytes; ++b) {
    for (unsigned j = 0; j < 8; ++j) {
      counts[8 * b + j] = static_cast<std::uint16_t>(counts[8 * b + j] + ((bits[b] >> j) & 1u));
    }
  }
}

PICO_VECTOR_CLONES void majority_loop(const std::uint16_t* negative, std::size_t n, unsigned ranks, float scale,
                                      float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned twice = 2u * negative[i];
    out[i] = twice < ranks ? scale : (twice > ranks ? -scale : 0.0f);
  }
}

}  // namespace

void pack_signs(std::span<const float> x, std::span<unsigned char> bits) {
  const std::size_t whole = x.size() / 8;
  if (bits.size() < (x.size() + 7) / 8) throw std::invalid_argument("pack_signs: bits shorter than ceil(n / 8)");
  pack_whole_bytes(x.data(), whole, bits.data());
  if (x.size() % 8 != 0) {
    unsigned byte = 0;
    for (std::size_t i = 8 * whole; i < x.size(); ++i) byte |= (x[i] < 0.0f ? 1u : 0u) << (i - 8 * whole);
    bits[whole] = static_cast<unsigned char>(byte);
  }
}

void count_votes(std::span<const unsigned char> bits, std::span<std::uint16_t> counts) {
  const std::size_t whole = counts.size() / 8;
  if (bits.size() < (counts.size() + 7) / 8) throw std::invalid_argument("count_votes: bits shorter than ceil(n / 8)");
  count_whole_bytes(bits.data(), whole, counts.data());
  for (std::size_t i = 8 * whole; i < counts.size(); ++i) {
    counts[i] = static_cast<std::uint16_t>(counts[i] + ((bits[i / 8] >> (i % 8)) & 1u));
  }
}

void majority_signs(std::span<const std::uint16_t> negative, int ranks, float scale, std::span<float> out) {
  if (negative.size() != out.size()) throw std::invalid_argument("majority_signs: spans differ in size");
  majority_loop(negative.data(), negative.size(), static_cast<unsigned>(ranks), scale, out.data());
}

}  // namespace pico::compressed
