// SPDX-License-Identifier: BSD-3-Clause
// Internal to the compressed kernels: Philox4x32-10 over runs of counter
// blocks, the form the quantisers and input generators consume. The public
// entry points (philox4x32, uniform_at) live in kernels.hpp; the round
// function and uniform_of_word, shared with the GPU kernels, in philox_core.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/philox_core.hpp"
#include "compression/kernels/kernel_isa.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed::detail {

// words[4 * j + w] = word w of block first_block + j, for j < nblocks.
using PhiloxWordsFn = void (*)(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                               std::size_t nblocks, std::uint32_t* words);
void philox_words_portable(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                           std::size_t nblocks, std::uint32_t* words);
// The AVX2 kernel (8 blocks per step); callable only where the CPU has AVX2.
void philox_words_avx2(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                       std::uint32_t* words);
// The AVX-512F kernel (16 blocks per step); callable only where the CPU has AVX-512F.
void philox_words_avx512(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                         std::uint32_t* words);
// The kernel of a path (one the CPU runs: kernel_isa.hpp), for the benchmark's --paths.
PhiloxWordsFn philox_words_for(KernelIsa isa);
// The one of the above that kernel_isa() names, chosen once.
void philox_words(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                  std::uint32_t* words);
// Name of the path philox_words dispatches to ("avx512", "avx2" or "scalar"), for the benchmark's header.
const char* philox_words_path();

// Elements are processed in chunks of this many: the uniforms of one chunk
// (4 KiB) stay in L1 between generation and use.
inline constexpr std::size_t kUniformChunk = 1024;
// u[j] = uniform_at(rng, first_index + j) for j < count <= kUniformChunk.
void uniforms_at(RandomStream rng, std::uint64_t first_index, std::size_t count, float* u);
// The Philox words of elements first_index .. first_index + count - 1 (count
// <= kUniformChunk): returns a pointer into `words` (kUniformChunk + 8 long)
// whose j-th word is element first_index + j's; uniform_of_word turns it
// into uniform_at's value. Lets a kernel fuse the conversion into its loop.
const std::uint32_t* words_at(RandomStream rng, std::uint64_t first_index, std::size_t count, std::uint32_t* words);

}  // namespace pico::compressed::detail
