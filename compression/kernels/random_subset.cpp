// SPDX-License-Identifier: BSD-3-Clause
// Random-k's shared subset: each element is kept with probability `keep`,
// decided by its Philox uniform, so ranks that share the stream keep the same
// positions without exchanging them. Bernoulli rather than exactly k: no
// shuffle, one pass, and E[kept_i] = keep exactly for every element (up to the
// 2^-24 grid of the uniforms), which is what makes x_i / keep unbiased.
#include <algorithm>
#include <array>
#include <stdexcept>

#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

constexpr std::size_t kBlock = 16;  // elements tested together before any is appended

// Appends (first + j, x[j]) where word j's uniform is below keep, from
// position `kept` on; returns the new count. Blocks of kBlock are tested with
// a vectorised OR first; the append is branch-free (always write, advance on
// a hit), safe because kept <= first + j, so every write lands inside n.
PICO_VECTOR_CLONES std::size_t collect_kept(const float* x, const std::uint32_t* words, std::size_t count,
                                            float keep, std::size_t first, std::uint32_t* indices, float* values,
                                            std::size_t kept) {
  std::size_t j = 0;
  for (; j + kBlock <= count; j += kBlock) {
    std::uint32_t hit = 0;
    for (std::size_t b = 0; b < kBlock; ++b) hit |= detail::uniform_of_word(words[j + b]) < keep ? 1u : 0u;
    if (hit == 0) continue;
    for (std::size_t b = 0; b < kBlock; ++b) {
      indices[kept] = static_cast<std::uint32_t>(first + j + b);
      values[kept] = x[j + b];
      kept += detail::uniform_of_word(words[j + b]) < keep ? 1 : 0;
    }
  }
  for (; j < count; ++j) {
    if (detail::uniform_of_word(words[j]) < keep) {
      indices[kept] = static_cast<std::uint32_t>(first + j);
      values[kept] = x[j];
      ++kept;
    }
  }
  return kept;
}

}  // namespace

std::size_t random_subset(std::span<const float> x, float keep, RandomStream rng, std::span<std::uint32_t> indices,
                          std::span<float> values) {
  if (indices.size() < x.size() || values.size() < x.size()) {
    throw std::invalid_argument("random_subset: the output spans are shorter than x");
  }
  if (x.size() > std::size_t{0xFFFFFFFFu}) throw std::invalid_argument("random_subset: indices are 32-bit");
  std::array<std::uint32_t, detail::kUniformChunk + 8> words;
  std::size_t kept = 0;
  for (std::size_t start = 0; start < x.size(); start += detail::kUniformChunk) {
    const std::size_t count = std::min(detail::kUniformChunk, x.size() - start);
    const std::uint32_t* w = detail::words_at(rng, start, count, words.data());
    kept = collect_kept(x.data() + start, w, count, keep, start, indices.data(), values.data(), kept);
  }
  return kept;
}

}  // namespace pico::compressed
