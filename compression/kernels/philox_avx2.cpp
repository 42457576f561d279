// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10 for runs of counter blocks with AVX2 (philox_avx2.hpp), 16
// blocks per step. Compiled for the baseline ISA; only these functions carry
// target("avx2"), and philox.cpp calls them only where kernel_isa() says avx2.
#include "compression/kernels/philox_avx2.hpp"

#include "compression/kernels/philox_batch.hpp"

namespace pico::compressed::detail {

__attribute__((target("avx2"))) void philox_words_avx2(std::uint64_t seed, std::uint64_t stream,
                                                        std::uint64_t first_block, std::size_t nblocks,
                                                        std::uint32_t* words) {
  const PhiloxAvx2Keys keys = philox_avx2_keys(seed, stream);
  std::size_t j = 0;
  for (; j + 16 <= nblocks; j += 16) {
    const PhiloxAvx2Out<2> r = philox_avx2_blocks<2>(keys, first_block + j);
    auto* out = reinterpret_cast<__m256i*>(words + 4 * j);
    for (int g = 0; g < 2; ++g)
      for (int q = 0; q < 4; ++q) _mm256_storeu_si256(out + 4 * g + q, r.words[g][q]);
  }
  if (j + 8 <= nblocks) {
    const PhiloxAvx2Out<1> r = philox_avx2_blocks<1>(keys, first_block + j);
    auto* out = reinterpret_cast<__m256i*>(words + 4 * j);
    for (int q = 0; q < 4; ++q) _mm256_storeu_si256(out + q, r.words[0][q]);
    j += 8;
  }
  philox_words_portable(seed, stream, first_block + j, nblocks - j, words + 4 * j);
}

}  // namespace pico::compressed::detail
