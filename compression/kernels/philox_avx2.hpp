// SPDX-License-Identifier: BSD-3-Clause
// Internal: Philox4x32-10 of 8 x G consecutive counter blocks with AVX2, as
// inline functions for the batch kernel (philox_avx2.cpp) and the fused AVX2
// quantiser (quantize_standard_avx2.cpp). Only callable where the CPU has AVX2.
//
// Each 32-bit Philox word lives in the low half of a 64-bit lane (one
// register for the even blocks, one for the odd): _mm256_mul_epu32 reads only
// the low halves, so its full 64-bit product is the round's (hi, lo) pair with
// no blends, and whatever the high halves hold never reaches a low half.
//
// G groups of 8 blocks run interleaved: one group's rounds are a chain of
// multiply (5 cycles on Intel), shift and xor, so 2 x G independent chains in
// flight keep the two vector multiply ports busy instead of waiting.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "collectives/philox_core.hpp"

namespace pico::compressed::detail {

// The key schedule and multipliers, broadcast once per call.
struct PhiloxAvx2Keys {
  __m256i m0, m1, stream_lo, stream_hi;
  __m256i k0[kPhiloxRounds];
  __m256i k1[kPhiloxRounds];
};

__attribute__((target("avx2"))) inline PhiloxAvx2Keys philox_avx2_keys(std::uint64_t seed, std::uint64_t stream) {
  PhiloxAvx2Keys keys;
  keys.m0 = _mm256_set1_epi64x(kPhiloxM0);
  keys.m1 = _mm256_set1_epi64x(kPhiloxM1);
  keys.stream_lo = _mm256_set1_epi64x(static_cast<std::uint32_t>(stream));
  keys.stream_hi = _mm256_set1_epi64x(static_cast<std::uint32_t>(stream >> 32));
  std::uint32_t k0 = static_cast<std::uint32_t>(seed);
  std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    keys.k0[round] = _mm256_set1_epi64x(k0);
    keys.k1[round] = _mm256_set1_epi64x(k1);
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
  return keys;
}

// Eight 32-bit lanes in block order from the even-block and odd-block halves.
__attribute__((target("avx2"))) inline __m256i philox_merge_even_odd(__m256i even, __m256i odd) {
  return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// words[g][r]: elements 8 r .. 8 r + 7 of group g, i.e. the four words of
// blocks first_block + 8 g + 2 r and + 2 r + 1, in element order.
template <int G>
struct PhiloxAvx2Out {
  __m256i words[G][4];
};

template <int G>
__attribute__((target("avx2"))) inline PhiloxAvx2Out<G> philox_avx2_blocks(const PhiloxAvx2Keys& keys,
                                                                           std::uint64_t first_block) {
  constexpr int kChains = 2 * G;  // chain 2 g: group g's even blocks, 2 g + 1: its odd ones
  __m256i w0[kChains], w1[kChains], w2[kChains], w3[kChains];
  const __m256i base = _mm256_set1_epi64x(static_cast<long long>(first_block));
  for (int c = 0; c < kChains; ++c) {
    const long long o = 8LL * (c / 2) + (c % 2);
    const __m256i blocks = _mm256_add_epi64(base, _mm256_setr_epi64x(o, o + 2, o + 4, o + 6));
    w0[c] = blocks;
    w1[c] = _mm256_srli_epi64(blocks, 32);
    w2[c] = keys.stream_lo;
    w3[c] = keys.stream_hi;
  }
  for (int round = 0; round < kPhiloxRounds; ++round) {
    for (int c = 0; c < kChains; ++c) {
      // The xors with the key do not wait for the multiplies.
      const __m256i a = _mm256_xor_si256(w1[c], keys.k0[round]);
      const __m256i b = _mm256_xor_si256(w3[c], keys.k1[round]);
      const __m256i p0 = _mm256_mul_epu32(w0[c], keys.m0);  // hi0:lo0
      const __m256i p1 = _mm256_mul_epu32(w2[c], keys.m1);  // hi1:lo1
      // hi to the low half by a swap within each 64-bit lane (a shuffle, not
      // a shift: it leaves the multiply ports to the multiplies).
      w0[c] = _mm256_xor_si256(_mm256_shuffle_epi32(p1, 0xB1), a);
      w1[c] = p1;
      w2[c] = _mm256_xor_si256(_mm256_shuffle_epi32(p0, 0xB1), b);
      w3[c] = p0;
    }
  }
  PhiloxAvx2Out<G> out;
  for (int g = 0; g < G; ++g) {
    const __m256i c0 = philox_merge_even_odd(w0[2 * g], w0[2 * g + 1]);
    const __m256i c1 = philox_merge_even_odd(w1[2 * g], w1[2 * g + 1]);
    const __m256i c2 = philox_merge_even_odd(w2[2 * g], w2[2 * g + 1]);
    const __m256i c3 = philox_merge_even_odd(w3[2 * g], w3[2 * g + 1]);
    // 4x8 transpose: lane-per-block registers to four words per block in order.
    const __m256i t0 = _mm256_unpacklo_epi32(c0, c1);  // b0w0 b0w1 b1w0 b1w1 | b4 b5
    const __m256i t1 = _mm256_unpackhi_epi32(c0, c1);  // b2 b3 | b6 b7 (words 0, 1)
    const __m256i t2 = _mm256_unpacklo_epi32(c2, c3);  // b0 b1 | b4 b5 (words 2, 3)
    const __m256i t3 = _mm256_unpackhi_epi32(c2, c3);  // b2 b3 | b6 b7 (words 2, 3)
    const __m256i s0 = _mm256_unpacklo_epi64(t0, t2);  // b0 | b4
    const __m256i s1 = _mm256_unpackhi_epi64(t0, t2);  // b1 | b5
    const __m256i s2 = _mm256_unpacklo_epi64(t1, t3);  // b2 | b6
    const __m256i s3 = _mm256_unpackhi_epi64(t1, t3);  // b3 | b7
    out.words[g][0] = _mm256_permute2x128_si256(s0, s1, 0x20);
    out.words[g][1] = _mm256_permute2x128_si256(s2, s3, 0x20);
    out.words[g][2] = _mm256_permute2x128_si256(s0, s1, 0x31);
    out.words[g][3] = _mm256_permute2x128_si256(s2, s3, 0x31);
  }
  return out;
}

}  // namespace pico::compressed::detail
