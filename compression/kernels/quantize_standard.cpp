// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with standard dithering (docs/compression.md).
//
// With y = |x| / scale * levels in [0, levels], the code is floor(y) + B where
// B ~ Bernoulli(y - floor(y)) decided by the element's Philox uniform u < frac.
// E[code] = y exactly (up to the 2^-24 grid of u: P(u < f) = ceil(f 2^24) / 2^24,
// a bias below 2^-24 levels); Var[code] = frac (1 - frac) <= 1/4 level^2.
#include <algorithm>
#include <array>
#include <stdexcept>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

template <typename Code>
[[gnu::always_inline]] inline void quantize_chunk_body(const float* x, const std::uint32_t* words, std::size_t n,
                                                       float scale, float to_levels, float top, Code* codes) {
  for (std::size_t i = 0; i < n; ++i) {
    const float magnitude = x[i] < 0.0f ? -x[i] : x[i];
    // |x| == scale must give exactly `levels` (the all-at-scale worst case of
    // the overflow bound), which |x| * fl(levels / scale) can miss by an ulp.
    const float y = magnitude == scale ? top : magnitude * to_levels;
    const float floor_y = static_cast<float>(static_cast<int>(y));  // y >= 0: truncation is floor
    // The uniform is made here, from the element's Philox word, rather than
    // in a pass of its own: one L1 pass fewer per chunk.
    const float u = detail::uniform_of_word(words[i]);
    float q = floor_y + (u < y - floor_y ? 1.0f : 0.0f);
    // Just below scale, |x| * fl(levels / scale) may still round above levels:
    // the clamp keeps the n-rank sum inside the integer (the overflow bound).
    q = q < top ? q : top;
    codes[i] = static_cast<Code>(static_cast<int>(x[i] < 0.0f ? -q : q));
  }
}

PICO_VECTOR_CLONES void quantize_chunk(const float* x, const std::uint32_t* words, std::size_t n, float scale, float to_levels,
                                       float top,
                                       std::int8_t* codes) {
  quantize_chunk_body(x, words, n, scale, to_levels, top, codes);
}

PICO_VECTOR_CLONES void quantize_chunk(const float* x, const std::uint32_t* words, std::size_t n, float scale, float to_levels,
                                       float top,
                                       std::int16_t* codes) {
  quantize_chunk_body(x, words, n, scale, to_levels, top, codes);
}

template <typename Code>
void quantize_standard_spans(std::span<const float> x, float scale, int levels, RandomStream rng,
                             std::uint64_t first_index, std::span<Code> codes) {
  if (x.size() != codes.size()) {
    throw std::invalid_argument("quantize_standard: x and codes differ in size");
  }
  if (scale == 0.0f || levels <= 0) {
    std::fill(codes.begin(), codes.end(), Code{0});
    return;
  }
  const float top = static_cast<float>(levels);
  const float to_levels = top / scale;
  std::array<std::uint32_t, detail::kUniformChunk + 8> words;
  for (std::size_t start = 0; start < x.size(); start += detail::kUniformChunk) {
    const std::size_t count = std::min(detail::kUniformChunk, x.size() - start);
    const std::uint32_t* w = detail::words_at(rng, first_index + start, count, words.data());
    quantize_chunk(x.data() + start, w, count, scale, to_levels, top, codes.data() + start);
  }
}

PICO_VECTOR_CLONES void scale_codes(const std::int8_t* sums, std::size_t n, float factor, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(sums[i]) * factor;
  }
}

PICO_VECTOR_CLONES void scale_codes(const std::int16_t* sums, std::size_t n, float factor, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(sums[i]) * factor;
  }
}

template <typename Code>
void dequantize_spans(std::span<const Code> sums, float factor, std::span<float> out) {
  if (sums.size() != out.size()) {
    throw std::invalid_argument("dequantize: sums and out differ in size");
  }
  scale_codes(sums.data(), sums.size(), factor, out.data());
}

// On kernel_threads() threads: part [b, e) draws its words at first_index + b,
// the ones a single pass draws for those elements.
template <typename Code>
void quantize_standard_in_parts(std::span<const float> x, float scale, int levels, RandomStream rng,
                                std::uint64_t first_index, std::span<Code> codes) {
  if (x.size() != codes.size()) {
    throw std::invalid_argument("quantize_standard: x and codes differ in size");
  }
  in_parts(x.size(), [&](int, std::size_t b, std::size_t e) {
    quantize_standard_spans(x.subspan(b, e - b), scale, levels, rng, first_index + b, codes.subspan(b, e - b));
  });
}

template <typename Code>
void dequantize_in_parts(std::span<const Code> sums, float factor, std::span<float> out) {
  if (sums.size() != out.size()) {
    throw std::invalid_argument("dequantize: sums and out differ in size");
  }
  in_parts(sums.size(), [&](int, std::size_t b, std::size_t e) {
    dequantize_spans(sums.subspan(b, e - b), factor, out.subspan(b, e - b));
  });
}

}  // namespace

int standard_levels(int bits, int ranks) {
  if (bits < 2 || bits > 32 || ranks < 1) {
    return 0;
  }
  const long long largest = (1LL << (bits - 1)) - 1;  // n * s <= 2^(b-1) - 1
  return static_cast<int>(largest / ranks);
}

void quantize_standard(std::span<const float> x, float scale, int levels, RandomStream rng, std::uint64_t first_index,
                       std::span<std::int8_t> codes) {
  quantize_standard_in_parts(x, scale, levels, rng, first_index, codes);
}

void quantize_standard(std::span<const float> x, float scale, int levels, RandomStream rng, std::uint64_t first_index,
                       std::span<std::int16_t> codes) {
  quantize_standard_in_parts(x, scale, levels, rng, first_index, codes);
}

void dequantize(std::span<const std::int8_t> sums, float factor, std::span<float> out) {
  dequantize_in_parts(sums, factor, out);
}

void dequantize(std::span<const std::int16_t> sums, float factor, std::span<float> out) {
  dequantize_in_parts(sums, factor, out);
}

}  // namespace pico::compressed
