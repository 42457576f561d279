// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with standard dithering (docs/compression.md): the calls, the
// threads and the scalar and AVX-512 paths (AVX2: quantize_standard_avx2.cpp).
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
#include "compression/kernels/quantize_paths.hpp"

namespace pico::compressed {

namespace detail {

namespace {

// The element loops of the scalar and AVX-512 paths: the chunk's Philox
// words come from philox_words (the same path), then each element's code.
// Each is compiled for its ISA (the compiler vectorises the loop) and called
// only where kernel_isa() names it.
template <typename Code>
[[gnu::always_inline]] inline void quantize_chunk_body(const float* x, const std::uint32_t* words, std::size_t n,
                                                       StandardLevels l, Code* codes) {
  for (std::size_t i = 0; i < n; ++i) codes[i] = quantize_standard_element<Code>(x[i], words[i], l);
}

template <typename Code>
[[gnu::target("arch=x86-64-v4")]] void quantize_chunk_avx512(const float* x, const std::uint32_t* words,
                                                             std::size_t n, StandardLevels l, Code* codes) {
  quantize_chunk_body(x, words, n, l, codes);
}

template <typename Code>
void quantize_chunk_scalar(const float* x, const std::uint32_t* words, std::size_t n, StandardLevels l, Code* codes) {
  quantize_chunk_body(x, words, n, l, codes);
}

template <typename Code>
using QuantizeChunkFn = void (*)(const float*, const std::uint32_t*, std::size_t, StandardLevels, Code*);

template <typename Code>
void quantize_in_chunks(PhiloxWordsFn philox, QuantizeChunkFn<Code> chunk, const float* x, std::size_t n,
                        StandardLevels l, RandomStream rng, std::uint64_t first_index, Code* codes) {
  std::array<std::uint32_t, kUniformChunk + 8> words;
  for (std::size_t start = 0; start < n; start += kUniformChunk) {
    const std::size_t count = std::min(kUniformChunk, n - start);
    // Whole blocks covering the chunk, as words_at, by this path's generator.
    const std::uint64_t index = first_index + start;
    const auto offset = static_cast<std::size_t>(index % 4);
    philox(rng.seed, rng.stream, index / 4, (offset + count + 3) / 4, words.data());
    chunk(x + start, words.data() + offset, count, l, codes + start);
  }
}

template <typename Code>
[[gnu::target("arch=x86-64-v4")]] void scale_codes_avx512(const Code* sums, std::size_t n, float factor, float* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(sums[i]) * factor;
}

template <typename Code>
[[gnu::target("avx2")]] void scale_codes_avx2(const Code* sums, std::size_t n, float factor, float* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(sums[i]) * factor;
}

template <typename Code>
void scale_codes_scalar(const Code* sums, std::size_t n, float factor, float* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(sums[i]) * factor;
}

template <typename Code>
void quantize_on(KernelIsa isa, const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                 std::uint64_t first_index, Code* codes) {
  switch (isa) {
    case KernelIsa::avx2: quantize_standard_avx2(x, n, l, rng, first_index, codes); return;
    case KernelIsa::avx512:
      quantize_in_chunks<Code>(philox_words_avx512, quantize_chunk_avx512<Code>, x, n, l, rng, first_index, codes);
      return;
    case KernelIsa::scalar: break;
  }
  quantize_in_chunks<Code>(philox_words_portable, quantize_chunk_scalar<Code>, x, n, l, rng, first_index, codes);
}

template <typename Code>
void scale_codes_on(KernelIsa isa, const Code* sums, std::size_t n, float factor, float* out) {
  switch (isa) {
    case KernelIsa::avx2: scale_codes_avx2(sums, n, factor, out); return;
    case KernelIsa::avx512: scale_codes_avx512(sums, n, factor, out); return;
    case KernelIsa::scalar: break;
  }
  scale_codes_scalar(sums, n, factor, out);
}

}  // namespace

void quantize_standard_on(KernelIsa isa, const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                          std::uint64_t first_index, std::int8_t* codes) {
  quantize_on(isa, x, n, l, rng, first_index, codes);
}

void quantize_standard_on(KernelIsa isa, const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                          std::uint64_t first_index, std::int16_t* codes) {
  quantize_on(isa, x, n, l, rng, first_index, codes);
}

void dequantize_on(KernelIsa isa, const std::int8_t* sums, std::size_t n, float factor, float* out) {
  scale_codes_on(isa, sums, n, factor, out);
}

void dequantize_on(KernelIsa isa, const std::int16_t* sums, std::size_t n, float factor, float* out) {
  scale_codes_on(isa, sums, n, factor, out);
}

}  // namespace detail

namespace {

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
  detail::quantize_standard_on(kernel_isa(), x.data(), x.size(), {scale, top / scale, top}, rng, first_index,
                               codes.data());
}

template <typename Code>
void dequantize_spans(std::span<const Code> sums, float factor, std::span<float> out) {
  if (sums.size() != out.size()) {
    throw std::invalid_argument("dequantize: sums and out differ in size");
  }
  detail::dequantize_on(kernel_isa(), sums.data(), sums.size(), factor, out.data());
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
