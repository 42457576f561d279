// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10's round function and the uniform of one output word, shared
// by the CPU kernels and the CUDA kernels (compression/kernels/gpu/), so
// both draw bit-identical random numbers for the same (seed, stream, index).
// Plain C++ for g++; under nvcc the functions are also compiled for the device.
#pragma once

#include <cstdint>

#include "support/host_device.hpp"

namespace pico::compressed::detail {

// Salmon et al., SC'11, Random123's philox.h: the two round multipliers and
// the Weyl key increments (golden ratio, sqrt(3) - 1).
inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
inline constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;
inline constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;
inline constexpr int kPhiloxRounds = 10;

// The 64-bit product a * b as its high and low words. On the device
// __umulhi and a 32-bit multiply say so directly (nvcc otherwise emits a
// 64-bit multiply of zero-extended operands); the bits are the same.
PICO_HOST_DEVICE inline void mul_hi_lo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
#if defined(__CUDA_ARCH__)
  hi = __umulhi(a, b);
  lo = a * b;
#else
  const std::uint64_t product = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(product >> 32);
  lo = static_cast<std::uint32_t>(product);
#endif
}

// One block, scalar: the reference the vector paths are tested against.
// c holds the counter on entry and the four output words on return.
PICO_HOST_DEVICE inline void philox_block(std::uint32_t k0, std::uint32_t k1, std::uint32_t c[4]) {
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    mul_hi_lo(kPhiloxM0, c[0], hi0, lo0);
    mul_hi_lo(kPhiloxM1, c[2], hi1, lo1);
    const std::uint32_t n0 = hi1 ^ c[1] ^ k0;
    const std::uint32_t n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
  }
}

// Block `block` of stream `stream` under key `seed`: counter {lo(block),
// hi(block), lo(stream), hi(stream)}, key {lo(seed), hi(seed)} (kernels.hpp's
// philox4x32). Element i of a RandomStream uses word i % 4 of block i / 4.
PICO_HOST_DEVICE inline void philox_counter_block(std::uint64_t seed, std::uint64_t stream, std::uint64_t block,
                                                  std::uint32_t out[4]) {
  out[0] = static_cast<std::uint32_t>(block);
  out[1] = static_cast<std::uint32_t>(block >> 32);
  out[2] = static_cast<std::uint32_t>(stream);
  out[3] = static_cast<std::uint32_t>(stream >> 32);
  philox_block(static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), out);
}

// The 24-bit uniform of a Philox word: the top 24 bits scaled by 2^-24, so
// every value is an exact float in [0, 1 - 2^-24] (both operations are exact,
// so no rounding mode or contraction can change it).
PICO_HOST_DEVICE inline float uniform_of_word(std::uint32_t word) {
  return static_cast<float>(word >> 8) * 0x1p-24f;
}

}  // namespace pico::compressed::detail
