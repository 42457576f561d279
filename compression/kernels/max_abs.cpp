// SPDX-License-Identifier: BSD-3-Clause
// max |x| as an integer maximum over the bit patterns with the sign cleared:
// for non-NaN floats that order equals the order of |x|, and an unsigned
// max reduction vectorises without -ffast-math (a float one does not, since
// fmax's NaN and signed-zero rules forbid reassociation).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

PICO_VECTOR_CLONES std::uint32_t max_magnitude_bits(const float* x, std::size_t n) {
  std::uint32_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x[i]) & 0x7FFFFFFFu;
    m = bits > m ? bits : m;
  }
  return m;
}

}  // namespace

float max_abs(std::span<const float> x) {
  // Each part's maximum, then theirs: a maximum is exact in any grouping.
  std::array<std::uint32_t, kMaxKernelThreads> part_max{};
  in_parts(x.size(), [&](int part, std::size_t b, std::size_t e) {
    part_max[static_cast<std::size_t>(part)] = max_magnitude_bits(x.data() + b, e - b);
  });
  return std::bit_cast<float>(*std::max_element(part_max.begin(), part_max.end()));
}

}  // namespace pico::compressed
