// SPDX-License-Identifier: BSD-3-Clause
// Arithmetic on sizes and counts that says when it overflows instead of
// wrapping: a count near 2^64 times the ranks or the element size must be
// refused, never silently become a small buffer.
#pragma once

#include <cstdint>
#include <optional>

namespace pico {

// a * b, or nullopt when the product does not fit in 64 bits.
constexpr std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// a + b, or nullopt when the sum does not fit in 64 bits.
constexpr std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

}  // namespace pico
