// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10 for eight consecutive counter blocks at once with AVX2.
// Compiled for the baseline ISA; only these functions carry target("avx2"),
// and philox.cpp calls them only after __builtin_cpu_supports("avx2").
//
// Each 32-bit Philox word lives in the low half of a 64-bit lane (one
// register for the even blocks, one for the odd): _mm256_mul_epu32 reads only
// the low halves, so its full 64-bit product is the round's (hi, lo) pair with
// no blends, and whatever the high halves hold never reaches a low half.
#include <immintrin.h>

#include "compression/kernels/philox_batch.hpp"

namespace pico::compressed::detail {

namespace {

constexpr int kBlocksPerStep = 8;

struct Lanes {  // one Philox word of four blocks, in the low halves of 64-bit lanes
  __m256i w[4];
};

__attribute__((target("avx2"))) inline void philox_round(Lanes& s, __m256i m0, __m256i m1, __m256i k0, __m256i k1) {
  const __m256i p0 = _mm256_mul_epu32(s.w[0], m0);  // hi0:lo0
  const __m256i p1 = _mm256_mul_epu32(s.w[2], m1);  // hi1:lo1
  const __m256i n0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), s.w[1]), k0);
  const __m256i n2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), s.w[3]), k1);
  s.w[0] = n0;
  s.w[1] = p1;
  s.w[2] = n2;
  s.w[3] = p0;
}

// Eight 32-bit lanes in block order from the even-block and odd-block halves.
__attribute__((target("avx2"))) inline __m256i merge_even_odd(__m256i even, __m256i odd) {
  return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

}  // namespace

__attribute__((target("avx2"))) void philox_words_avx2(std::uint64_t seed, std::uint64_t stream,
                                                        std::uint64_t first_block, std::size_t nblocks,
                                                        std::uint32_t* words) {
  const __m256i m0 = _mm256_set1_epi64x(kPhiloxM0);
  const __m256i m1 = _mm256_set1_epi64x(kPhiloxM1);
  const __m256i stream_lo = _mm256_set1_epi64x(static_cast<std::uint32_t>(stream));
  const __m256i stream_hi = _mm256_set1_epi64x(static_cast<std::uint32_t>(stream >> 32));
  __m256i keys0[kPhiloxRounds];
  __m256i keys1[kPhiloxRounds];
  {
    std::uint32_t k0 = static_cast<std::uint32_t>(seed);
    std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
    for (int round = 0; round < kPhiloxRounds; ++round) {
      keys0[round] = _mm256_set1_epi64x(k0);
      keys1[round] = _mm256_set1_epi64x(k1);
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
  }
  const __m256i even_offsets = _mm256_setr_epi64x(0, 2, 4, 6);
  const __m256i odd_offsets = _mm256_setr_epi64x(1, 3, 5, 7);
  std::size_t j = 0;
  for (; j + kBlocksPerStep <= nblocks; j += kBlocksPerStep) {
    const __m256i base = _mm256_set1_epi64x(static_cast<long long>(first_block + j));
    const __m256i even_blocks = _mm256_add_epi64(base, even_offsets);
    const __m256i odd_blocks = _mm256_add_epi64(base, odd_offsets);
    Lanes even{{even_blocks, _mm256_srli_epi64(even_blocks, 32), stream_lo, stream_hi}};
    Lanes odd{{odd_blocks, _mm256_srli_epi64(odd_blocks, 32), stream_lo, stream_hi}};
    for (int round = 0; round < kPhiloxRounds; ++round) {
      philox_round(even, m0, m1, keys0[round], keys1[round]);
      philox_round(odd, m0, m1, keys0[round], keys1[round]);
    }
    const __m256i c0 = merge_even_odd(even.w[0], odd.w[0]);
    const __m256i c1 = merge_even_odd(even.w[1], odd.w[1]);
    const __m256i c2 = merge_even_odd(even.w[2], odd.w[2]);
    const __m256i c3 = merge_even_odd(even.w[3], odd.w[3]);
    // 4x8 transpose: lane-per-block registers to four words per block in order.
    const __m256i t0 = _mm256_unpacklo_epi32(c0, c1);  // b0w0 b0w1 b1w0 b1w1 | b4 b5
    const __m256i t1 = _mm256_unpackhi_epi32(c0, c1);  // b2 b3 | b6 b7 (words 0, 1)
    const __m256i t2 = _mm256_unpacklo_epi32(c2, c3);  // b0 b1 | b4 b5 (words 2, 3)
    const __m256i t3 = _mm256_unpackhi_epi32(c2, c3);  // b2 b3 | b6 b7 (words 2, 3)
    const __m256i s0 = _mm256_unpacklo_epi64(t0, t2);  // b0 | b4
    const __m256i s1 = _mm256_unpackhi_epi64(t0, t2);  // b1 | b5
    const __m256i s2 = _mm256_unpacklo_epi64(t1, t3);  // b2 | b6
    const __m256i s3 = _mm256_unpackhi_epi64(t1, t3);  // b3 | b7
    auto* out = reinterpret_cast<__m256i*>(words + 4 * j);
    _mm256_storeu_si256(out + 0, _mm256_permute2x128_si256(s0, s1, 0x20));
    _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(s2, s3, 0x20));
    _mm256_storeu_si256(out + 2, _mm256_permute2x128_si256(s0, s1, 0x31));
    _mm256_storeu_si256(out + 3, _mm256_permute2x128_si256(s2, s3, 0x31));
  }
  philox_words_portable(seed, stream, first_block + j, nblocks - j, words + 4 * j);
}

}  // namespace pico::compressed::detail
