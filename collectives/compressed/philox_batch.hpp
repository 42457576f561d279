// Internal to the compressed kernels: Philox4x32-10 over runs of counter
// blocks, the form the quantisers and input generators consume. The public
// entry points (philox4x32, uniform_at) live in kernels.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/compressed/kernels.hpp"

namespace pico::compressed::detail {

// Salmon et al., SC'11, Random123's philox.h: the two round multipliers and
// the Weyl key increments (golden ratio, sqrt(3) - 1).
inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
inline constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;
inline constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;
inline constexpr int kPhiloxRounds = 10;

// One block, scalar: the reference the vector paths are tested against.
inline void philox_block(std::uint32_t k0, std::uint32_t k1, std::uint32_t c[4]) {
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    const std::uint64_t p0 = static_cast<std::uint64_t>(kPhiloxM0) * c[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kPhiloxM1) * c[2];
    const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k0;
    const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = static_cast<std::uint32_t>(p1);
    c[2] = n2;
    c[3] = static_cast<std::uint32_t>(p0);
  }
}

// words[4 * j + w] = word w of block first_block + j, for j < nblocks.
using PhiloxWordsFn = void (*)(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                               std::size_t nblocks, std::uint32_t* words);
void philox_words_portable(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                           std::size_t nblocks, std::uint32_t* words);
// The AVX2 kernel (8 blocks per step); callable only where the CPU has AVX2.
void philox_words_avx2(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                       std::uint32_t* words);
// The fastest of the above that this CPU runs, chosen once.
void philox_words(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                  std::uint32_t* words);
// Name of the path philox_words dispatches to ("avx2" or "portable"), for the benchmark's header.
const char* philox_words_path();

// The 24-bit uniform of a Philox word: the top 24 bits scaled by 2^-24, so
// every value is an exact float in [0, 1 - 2^-24].
inline float uniform_of_word(std::uint32_t word) {
  return static_cast<float>(word >> 8) * 0x1p-24f;
}

// Elements are processed in chunks of this many: the uniforms of one chunk
// (4 KiB) stay in L1 between generation and use.
inline constexpr std::size_t kUniformChunk = 1024;
// u[j] = uniform_at(rng, first_index + j) for j < count <= kUniformChunk.
void uniforms_at(RandomStream rng, std::uint64_t first_index, std::size_t count, float* u);

}  // namespace pico::compressed::detail
