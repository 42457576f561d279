// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with exponential dithering: levels scale * 2^-(e-1), e = 1..32.
//
// With y = |x| / scale written as y = m * 2^E (m in [1, 2)), the neighbouring
// levels are lo = 2^E (code 1 - E) and hi = 2^(E+1) (code -E); rounding up
// with probability p = (y - lo) / (hi - lo) = m - 1 (the mantissa fraction,
// read straight from the float's bits) gives E[level] = y, unbiased, with
// Var = (hi - y)(y - lo) scale^2 <= (y/2)^2 scale^2: relative error <= 1/2.
// Below the smallest level 2^-31, y rounds to 2^-31 with p = y 2^31, else 0.
#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

static_assert(kExponentLevels == 32, "the small-value branch below uses 2^-31 as the smallest level");
constexpr int kSmallestExponent = -(kExponentLevels - 1);  // smallest level 2^-31
constexpr int kFloatExponentBias = 127;
constexpr std::uint32_t kSignBitCode = 0x80u;  // bit 7 of a code
constexpr std::uint32_t kOneBits = 0x3F800000u;  // 1.0f

PICO_VECTOR_CLONES void quantize_exponential_chunk(const float* __restrict x, const float* __restrict u,
                                                   std::size_t n, float inv_scale, std::int8_t* __restrict codes) {
  for (std::size_t i = 0; i < n; ++i) {
    // Branch-free throughout so that the loop vectorises.
    const std::uint32_t x_bits = std::bit_cast<std::uint32_t>(x[i]);
    const float unclamped = std::bit_cast<float>(x_bits & 0x7FFFFFFFu) * inv_scale;
    // Clamp to 1 (|x| <= scale up to the rounding of 1/scale) as an integer
    // min on the bits, which order like the values for y >= 0: a float select
    // here becomes a branch that blocks if-conversion.
    const std::uint32_t bits = std::min(std::bit_cast<std::uint32_t>(unclamped), kOneBits);
    const float y = std::bit_cast<float>(bits);
    const int exponent = static_cast<int>(bits >> 23) - kFloatExponentBias;
    const float round_up_p = std::bit_cast<float>((bits & 0x007FFFFFu) | kOneBits) - 1.0f;
    const int normal_code = 1 - exponent - static_cast<int>(u[i] < round_up_p);
    const int small_code = kExponentLevels * static_cast<int>(u[i] < y * 0x1p31f);
    const int use_normal = -static_cast<int>(exponent >= kSmallestExponent);  // all ones or zero
    const int magnitude = (normal_code & use_normal) | (small_code & ~use_normal);
    const std::uint32_t sign = ((x_bits >> 31) & static_cast<std::uint32_t>(magnitude != 0)) << 7;
    codes[i] = static_cast<std::int8_t>(static_cast<std::uint32_t>(magnitude) | sign);
  }
}

// The level of a code as float bits: exponent field 128 - e is 2^-(e-1); code 0 is +0.
[[gnu::always_inline]] inline float level_of(std::int8_t code) {
  const std::uint32_t c = static_cast<std::uint8_t>(code);
  const std::uint32_t e = c & 0x7Fu;
  const std::uint32_t bits = ((128u - e) << 23) | ((c & kSignBitCode) << 24);
  return std::bit_cast<float>(e != 0 ? bits : 0u);
}

PICO_VECTOR_CLONES void accumulate_chunk(const std::int8_t* __restrict codes, std::size_t n, float scale,
                                         float* __restrict acc) {
  for (std::size_t i = 0; i < n; ++i) {
    acc[i] += level_of(codes[i]) * scale;
  }
}

PICO_VECTOR_CLONES void decode_chunk(const std::int8_t* __restrict codes, std::size_t n, float scale,
                                     float* __restrict out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = level_of(codes[i]) * scale;
  }
}

void require_same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b) {
    throw std::invalid_argument(what);
  }
}

}  // namespace

void quantize_exponential(std::span<const float> x, float scale, RandomStream rng, std::uint64_t first_index,
                          std::span<std::int8_t> codes) {
  require_same_size(x.size(), codes.size(), "quantize_exponential: x and codes differ in size");
  if (scale == 0.0f) {
    std::fill(codes.begin(), codes.end(), std::int8_t{0});
    return;
  }
  const float inv_scale = 1.0f / scale;
  // Part [b, e) draws the uniforms of first_index + b on: a single pass's.
  in_parts(x.size(), [&](int, std::size_t b, std::size_t e) {
    std::array<float, detail::kUniformChunk> u;
    for (std::size_t start = b; start < e; start += detail::kUniformChunk) {
      const std::size_t count = std::min(detail::kUniformChunk, e - start);
      detail::uniforms_at(rng, first_index + start, count, u.data());
      quantize_exponential_chunk(x.data() + start, u.data(), count, inv_scale, codes.data() + start);
    }
  });
}

void accumulate_exponential(std::span<const std::int8_t> codes, float scale, std::span<float> acc) {
  require_same_size(codes.size(), acc.size(), "accumulate_exponential: codes and acc differ in size");
  in_parts(codes.size(), [&](int, std::size_t b, std::size_t e) {
    accumulate_chunk(codes.data() + b, e - b, scale, acc.data() + b);
  });
}

void dequantize_exponential(std::span<const std::int8_t> codes, float scale, std::span<float> out) {
  require_same_size(codes.size(), out.size(), "dequantize_exponential: codes and out differ in size");
  in_parts(codes.size(), [&](int, std::size_t b, std::size_t e) { decode_chunk(codes.data() + b, e - b, scale, out.data() + b); });
}

}  // namespace pico::compressed
