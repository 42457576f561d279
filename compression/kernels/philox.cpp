// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10: the scalar generator, the portable batch path, the batch
// path of kernel_isa(), and the per-element uniforms of kernels.hpp.
#include <array>

#include "compression/kernels/kernel_isa.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"

namespace pico::compressed {

void philox4x32(std::uint64_t seed, std::uint64_t stream, std::uint64_t block, std::uint32_t out[4]) {
  detail::philox_counter_block(seed, stream, block, out);
}

float uniform_at(RandomStream rng, std::uint64_t index) {
  std::uint32_t words[4];
  philox4x32(rng.seed, rng.stream, index / 4, words);
  return detail::uniform_of_word(words[index % 4]);
}

namespace detail {

void philox_words_portable(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                           std::size_t nblocks, std::uint32_t* words) {
  for (std::size_t j = 0; j < nblocks; ++j) {
    philox4x32(seed, stream, first_block + j, words + 4 * j);
  }
}

PhiloxWordsFn philox_words_for(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::avx512: return philox_words_avx512;
    case KernelIsa::avx2: return philox_words_avx2;
    case KernelIsa::scalar: break;
  }
  return philox_words_portable;
}

namespace {

// Resolved on first use; a function-local static is initialised once, thread-safely.
PhiloxWordsFn philox_words_impl() {
  static const PhiloxWordsFn impl = philox_words_for(kernel_isa());
  return impl;
}

}  // namespace

void philox_words(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::size_t nblocks,
                  std::uint32_t* words) {
  philox_words_impl()(seed, stream, first_block, nblocks, words);
}

const char* philox_words_path() { return kernel_isa_name(kernel_isa()); }

const std::uint32_t* words_at(RandomStream rng, std::uint64_t first_index, std::size_t count, std::uint32_t* words) {
  // Whole blocks covering [first_index, first_index + count): at most one
  // partial block at each end, hence the 8 spare words.
  const std::uint64_t first_block = first_index / 4;
  const std::size_t offset = static_cast<std::size_t>(first_index % 4);
  const std::size_t nblocks = (offset + count + 3) / 4;
  philox_words(rng.seed, rng.stream, first_block, nblocks, words);
  return words + offset;
}

void uniforms_at(RandomStream rng, std::uint64_t first_index, std::size_t count, float* u) {
  std::array<std::uint32_t, kUniformChunk + 8> words;
  const std::uint32_t* w = words_at(rng, first_index, count, words.data());
  for (std::size_t j = 0; j < count; ++j) {
    u[j] = uniform_of_word(w[j]);
  }
}

}  // namespace detail
}  // namespace pico::compressed
