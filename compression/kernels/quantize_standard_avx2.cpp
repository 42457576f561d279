// SPDX-License-Identifier: BSD-3-Clause
// The standard quantiser's AVX2 path: Philox4x32-10 fused into the element
// loop, 64 elements (16 counter blocks, four interleaved multiply chains) per
// step, with each element's code exactly quantize_standard_element's of its
// own Philox word (quantize_paths.hpp). The words never go through memory,
// and the codes are packed in registers and stored whole. Elements before the
// first whole block and after the last whole step take the per-element
// definition. Compiled for the baseline ISA; kernel_isa() says when to call it.
#include <immintrin.h>

#include <algorithm>
#include <array>

#include "compression/kernels/philox_avx2.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/quantize_paths.hpp"

namespace pico::compressed::detail {

namespace {

struct Avx2Levels {
  __m256 scale, to_levels, top, to_unit;
  __m256i top_int;
};

// Eight codes as int32 from eight inputs and their Philox words: the
// per-element definition, with floor(y) + (u < frac) and the clamp done on
// the integer floor (exact: every value is a small integer).
__attribute__((target("avx2"))) inline __m256i codes8(__m256 x, __m256i word, const Avx2Levels& l) {
  const __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
  const __m256 at_scale = _mm256_cmp_ps(magnitude, l.scale, _CMP_EQ_OQ);
  const __m256 y = _mm256_blendv_ps(_mm256_mul_ps(magnitude, l.to_levels), l.top, at_scale);
  const __m256i floor_int = _mm256_cvttps_epi32(y);  // y >= 0: truncation is floor
  const __m256 frac = _mm256_sub_ps(y, _mm256_cvtepi32_ps(floor_int));
  const __m256 u = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(word, 8)), l.to_unit);
  const __m256i up = _mm256_castps_si256(_mm256_cmp_ps(u, frac, _CMP_LT_OQ));  // -1 where rounding up
  const __m256i q = _mm256_min_epi32(_mm256_sub_epi32(floor_int, up), l.top_int);
  // x's sign: negated where x < 0; where x is +0 or -0, q is 0 either way.
  return _mm256_sign_epi32(q, _mm256_castps_si256(x));
}

// 32 codes of four int32 registers (elements in order) stored as int8 / int16.
__attribute__((target("avx2"))) inline void store_codes(const __m256i q[4], std::int8_t* out) {
  const __m256i ab = _mm256_packs_epi32(q[0], q[1]);  // a0-3 b0-3 | a4-7 b4-7
  const __m256i cd = _mm256_packs_epi32(q[2], q[3]);
  const __m256i bytes = _mm256_packs_epi16(ab, cd);  // a0-3 b0-3 c0-3 d0-3 | a4-7 b4-7 c4-7 d4-7
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

__attribute__((target("avx2"))) inline void store_codes(const __m256i q[4], std::int16_t* out) {
  auto* o = reinterpret_cast<__m256i*>(out);
  _mm256_storeu_si256(o, _mm256_permute4x64_epi64(_mm256_packs_epi32(q[0], q[1]), 0xD8));
  _mm256_storeu_si256(o + 1, _mm256_permute4x64_epi64(_mm256_packs_epi32(q[2], q[3]), 0xD8));
}

// Elements [0, n) by the per-element definition, their words from philox_words.
template <typename Code>
void quantize_by_element(const float* x, std::size_t n, StandardLevels l, RandomStream rng, std::uint64_t first_index,
                         Code* codes) {
  std::array<std::uint32_t, kUniformChunk + 8> words;
  for (std::size_t start = 0; start < n; start += kUniformChunk) {
    const std::size_t count = std::min(kUniformChunk, n - start);
    const std::uint32_t* w = words_at(rng, first_index + start, count, words.data());
    for (std::size_t i = 0; i < count; ++i) codes[start + i] = quantize_standard_element<Code>(x[start + i], w[i], l);
  }
}

template <int G, typename Code>
__attribute__((target("avx2"))) inline void quantize_step(const float* x, std::uint64_t block,
                                                          const PhiloxAvx2Keys& keys, const Avx2Levels& lv,
                                                          Code* codes) {
  const PhiloxAvx2Out<G> r = philox_avx2_blocks<G>(keys, block);
  for (int g = 0; g < G; ++g) {
    __m256i q[4];
    for (int k = 0; k < 4; ++k) q[k] = codes8(_mm256_loadu_ps(x + 32 * g + 8 * k), r.words[g][k], lv);
    store_codes(q, codes + 32 * g);
  }
}

template <typename Code>
__attribute__((target("avx2"))) void quantize_avx2(const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                                                   std::uint64_t first_index, Code* codes) {
  // Up to the first whole counter block.
  const std::size_t head = std::min<std::size_t>(n, (4 - first_index % 4) % 4);
  quantize_by_element(x, head, l, rng, first_index, codes);
  const Avx2Levels lv{_mm256_set1_ps(l.scale), _mm256_set1_ps(l.to_levels), _mm256_set1_ps(l.top),
                      _mm256_set1_ps(0x1p-24f), _mm256_set1_epi32(static_cast<int>(l.top))};
  const PhiloxAvx2Keys keys = philox_avx2_keys(rng.seed, rng.stream);
  std::size_t i = head;
  const std::uint64_t first_block = (first_index + head) / 4;
  for (; i + 64 <= n; i += 64) quantize_step<2>(x + i, first_block + (i - head) / 4, keys, lv, codes + i);
  if (i + 32 <= n) {
    quantize_step<1>(x + i, first_block + (i - head) / 4, keys, lv, codes + i);
    i += 32;
  }
  quantize_by_element(x + i, n - i, l, rng, first_index + i, codes + i);
}

}  // namespace

void quantize_standard_avx2(const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                            std::uint64_t first_index, std::int8_t* codes) {
  quantize_avx2(x, n, l, rng, first_index, codes);
}

void quantize_standard_avx2(const float* x, std::size_t n, StandardLevels l, RandomStream rng,
                            std::uint64_t first_index, std::int16_t* codes) {
  quantize_avx2(x, n, l, rng, first_index, codes);
}

}  // namespace pico::compressed::detail
