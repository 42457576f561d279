// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10 for sixteen consecutive counter blocks at once with AVX-512F,
// the AVX2 kernel's scheme (philox_avx2.cpp) in 512-bit registers: each
// 32-bit word in the low half of a 64-bit lane, even and odd blocks in two
// registers, so _mm512_mul_epu32 yields the round's (hi, lo) pair directly.
// Compiled for the baseline ISA; only these functions carry
// target("avx512f"), and philox.cpp calls them only after
// __builtin_cpu_supports("avx512f").
// GCC 12's avx512fintrin.h builds its pass-through operands from
// _mm512_undefined_epi32() (`__m512i __Y = __Y;`), which -Wmaybe-uninitialized
// flags wherever such an intrinsic is inlined at -O2:
// a false positive of the header, silenced for this file only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "compression/kernels/philox_batch.hpp"

namespace pico::compressed::detail {

namespace {

constexpr int kBlocksPerStep = 16;

struct Lanes {  // one Philox word of eight blocks, in the low halves of 64-bit lanes
  __m512i w[4];
};

__attribute__((target("avx512f"))) inline void philox_round(Lanes& s, __m512i m0, __m512i m1, __m512i k0,
                                                            __m512i k1) {
  const __m512i p0 = _mm512_mul_epu32(s.w[0], m0);  // hi0:lo0
  const __m512i p1 = _mm512_mul_epu32(s.w[2], m1);  // hi1:lo1
  const __m512i n0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), s.w[1]), k0);
  const __m512i n2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), s.w[3]), k1);
  s.w[0] = n0;
  s.w[1] = p1;
  s.w[2] = n2;
  s.w[3] = p0;
}

// Sixteen 32-bit lanes in block order from the even-block and odd-block halves.
__attribute__((target("avx512f"))) inline __m512i merge_even_odd(__m512i even, __m512i odd) {
  return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

}  // namespace

__attribute__((target("avx512f"))) void philox_words_avx512(std::uint64_t seed, std::uint64_t stream,
                                                            std::uint64_t first_block, std::size_t nblocks,
                                                            std::uint32_t* words) {
  const __m512i m0 = _mm512_set1_epi64(kPhiloxM0);
  const __m512i m1 = _mm512_set1_epi64(kPhiloxM1);
  const __m512i stream_lo = _mm512_set1_epi64(static_cast<std::uint32_t>(stream));
  const __m512i stream_hi = _mm512_set1_epi64(static_cast<std::uint32_t>(stream >> 32));
  __m512i keys0[kPhiloxRounds];
  __m512i keys1[kPhiloxRounds];
  {
    std::uint32_t k0 = static_cast<std::uint32_t>(seed);
    std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
    for (int round = 0; round < kPhiloxRounds; ++round) {
      keys0[round] = _mm512_set1_epi64(k0);
      keys1[round] = _mm512_set1_epi64(k1);
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
  }
  const __m512i even_offsets = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odd_offsets = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  std::size_t j = 0;
  for (; j + kBlocksPerStep <= nblocks; j += kBlocksPerStep) {
    const __m512i base = _mm512_set1_epi64(static_cast<long long>(first_block + j));
    const __m512i even_blocks = _mm512_add_epi64(base, even_offsets);
    const __m512i odd_blocks = _mm512_add_epi64(base, odd_offsets);
    Lanes even{{even_blocks, _mm512_srli_epi64(even_blocks, 32), stream_lo, stream_hi}};
    Lanes odd{{odd_blocks, _mm512_srli_epi64(odd_blocks, 32), stream_lo, stream_hi}};
    for (int round = 0; round < kPhiloxRounds; ++round) {
      philox_round(even, m0, m1, keys0[round], keys1[round]);
      philox_round(odd, m0, m1, keys0[round], keys1[round]);
    }
    const __m512i c0 = merge_even_odd(even.w[0], odd.w[0]);
    const __m512i c1 = merge_even_odd(even.w[1], odd.w[1]);
    const __m512i c2 = merge_even_odd(even.w[2], odd.w[2]);
    const __m512i c3 = merge_even_odd(even.w[3], odd.w[3]);
    // 4x16 transpose: within each 128-bit lane as in the AVX2 kernel, then
    // the lanes into block order (two rounds of 128-bit lane shuffles).
    const __m512i t0 = _mm512_unpacklo_epi32(c0, c1);
    const __m512i t1 = _mm512_unpackhi_epi32(c0, c1);
    const __m512i t2 = _mm512_unpacklo_epi32(c2, c3);
    const __m512i t3 = _mm512_unpackhi_epi32(c2, c3);
    const __m512i s0 = _mm512_unpacklo_epi64(t0, t2);  // blocks 0 | 4 | 8 | 12
    const __m512i s1 = _mm512_unpackhi_epi64(t0, t2);  // 1 | 5 | 9 | 13
    const __m512i s2 = _mm512_unpacklo_epi64(t1, t3);  // 2 | 6 | 10 | 14
    const __m512i s3 = _mm512_unpackhi_epi64(t1, t3);  // 3 | 7 | 11 | 15
    const __m512i u0 = _mm512_shuffle_i32x4(s0, s1, 0x44);  // 0 | 4 | 1 | 5
    const __m512i u1 = _mm512_shuffle_i32x4(s2, s3, 0x44);  // 2 | 6 | 3 | 7
    const __m512i u2 = _mm512_shuffle_i32x4(s0, s1, 0xEE);  // 8 | 12 | 9 | 13
    const __m512i u3 = _mm512_shuffle_i32x4(s2, s3, 0xEE);  // 10 | 14 | 11 | 15
    std::uint32_t* out = words + 4 * j;
    _mm512_storeu_si512(out + 0, _mm512_shuffle_i32x4(u0, u1, 0x88));   // 0 1 2 3
    _mm512_storeu_si512(out + 16, _mm512_shuffle_i32x4(u0, u1, 0xDD));  // 4 5 6 7
    _mm512_storeu_si512(out + 32, _mm512_shuffle_i32x4(u2, u3, 0x88));  // 8 9 10 11
    _mm512_storeu_si512(out + 48, _mm512_shuffle_i32x4(u2, u3, 0xDD));  // 12 13 14 15
  }
  philox_words_avx2(seed, stream, first_block + j, nblocks - j, words + 4 * j);
}

}  // namespace pico::compressed::detail

#pragma GCC diagnostic pop
