// SPDX-License-Identifier: BSD-3-Clause
// Internal: the standard quantiser's definition per element and its paths
// (scalar, AVX2, AVX-512; kernel_isa.hpp), which must all give the codes of
// quantize_standard_element: the GPU kernels (compression/kernels/gpu/) give
// the same bits from the same Philox words.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/philox_core.hpp"
#include "compression/kernels/kernel_isa.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed::detail {

// A call's constants: levels as a float (`top`) and levels / scale.
struct StandardLevels {
  float scale;
  float to_levels;
  float top;
};

// One element's code from its Philox word: floor(y) + (u < y - floor(y)),
// y = |x| / scale * levels, clamped to levels, with x's sign.
template <typename Code>
[[gnu::always_inline]] inline Code quantize_standard_element(float x, std::uint32_t word, StandardLevels l) {
  const float magnitude = x < 0.0f ? -x : x;
  // |x| == scale must give exactly `levels` (the all-at-scale worst case of
  // the overflow bound), which |x| * fl(levels / scale) can miss by an ulp.
  const float y = magnitude == l.scale ? l.top : magnitude * l.to_levels;
  const float floor_y = static_cast<float>(static_cast<int>(y));  // y >= 0: truncation is floor
  const float u = uniform_of_word(word);
  float q = floor_y + (u < y - floor_y ? 1.0f : 0.0f);
  // Just below scale, |x| * fl(levels / scale) may still round above levels:
  // the clamp keeps the n-rank sum inside the integer (the overflow bound).
  q = q < l.top ? q : l.top;
  return static_cast<Code>(static_cast<int>(x < 0.0f ? -q : q));
}

// Elements [0, n) of x whose first is element first_index of rng, on one
// thread, by the named path (which the CPU must run).
void quantize_standard_on(KernelIsa isa, const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                          std::uint64_t first_index, std::int8_t* codes);
void quantize_standard_on(KernelIsa isa, const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                          std::uint64_t first_index, std::int16_t* codes);
// The AVX2 path: Philox fused into the element loop (no words buffer).
void quantize_standard_avx2(const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                            std::uint64_t first_index, std::int8_t* codes);
void quantize_standard_avx2(const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                            std::uint64_t first_index, std::int16_t* codes);
// out[i] = sums[i] * factor by the named path.
void dequantize_on(KernelIsa isa, const std::int8_t* sums, std::size_t n, float factor, float* out);
void dequantize_on(KernelIsa isa, const std::int16_t* sums, std::size_t n, float factor, float* out);

}  // namespace pico::compressed::detail
