// SPDX-License-Identifier: BSD-3-Clause
// Validation inputs whose exact result is known in closed form.
//
// Every value is a small integer, so float sums and products are exact in any
// reduction order, and integer arithmetic wraps identically in any order
// (C++20 and the MPI libraries' C code both reduce modulo 2^bits on gcc).
// The inputs depend on rank and element index, so a block delivered to the
// wrong place or from the wrong rank shows up as a mismatch. The NCCL
// backend's validation kernels evaluate the same functions on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/types.hpp"
#include "support/host_device.hpp"

namespace pico::pattern {

constexpr std::uint64_t kSumPeriod = 17;

// Payload of a data-moving collective: what rank `rank` contributes at `index`.
// Values 0..126 are exact in every datatype.
template <class T>
PICO_HOST_DEVICE T payload(int rank, std::uint64_t index) {
  return static_cast<T>((static_cast<std::uint64_t>(rank) * 31 + index * 7) % 127);
}

// Offset that makes sum/min/max inputs signed where the type is.
template <class T>
PICO_HOST_DEVICE constexpr std::int64_t sum_offset() {
  return std::is_unsigned_v<T> ? 0 : -static_cast<std::int64_t>(kSumPeriod / 2);
}

// The factor a prod input uses besides 1 and 2: -1 where the type has a sign,
// 3 for unsigned types (odd, so products never collapse to zero modulo 2^bits).
template <class T>
PICO_HOST_DEVICE constexpr std::int64_t prod_factor() {
  return std::is_unsigned_v<T> ? 3 : -1;
}

// Input of a reducing collective at rank `rank`, element `index`.
template <class T>
PICO_HOST_DEVICE T reduce_input(Op op, int rank, int np, std::uint64_t index) {
  if (op == Op::prod) {
    if (index % static_cast<std::uint64_t>(np) == static_cast<std::uint64_t>(rank)) return static_cast<T>(2);
    return static_cast<T>((rank + index) % 3 == 0 ? prod_factor<T>() : 1);
  }
  return static_cast<T>(static_cast<std::int64_t>((rank + index) % kSumPeriod) + sum_offset<T>());
}

namespace detail {
// Sum over r in [0, ranks) of (r + index) mod kSumPeriod.
PICO_HOST_DEVICE inline std::int64_t cyclic_sum(int ranks, std::uint64_t index) {
  const auto n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t start = index % kSumPeriod;
  std::int64_t total = static_cast<std::int64_t>(n / kSumPeriod * (kSumPeriod * (kSumPeriod - 1) / 2));
  for (std::uint64_t t = 0; t < n % kSumPeriod; ++t) total += static_cast<std::int64_t>((start + t) % kSumPeriod);
  return total;
}

// Number of ranks r in [0, ranks) whose prod input is prod_factor: (r + index) % 3 == 0, r != index % np.
PICO_HOST_DEVICE inline std::uint64_t prod_factor_count(int np, int ranks, std::uint64_t index) {
  const auto n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t first = (3 - index % 3) % 3;
  std::uint64_t k = first < n ? (n - 1 - first) / 3 + 1 : 0;
  const std::uint64_t two_at = index % static_cast<std::uint64_t>(np);
  if (two_at < n && (two_at + index) % 3 == 0) --k;
  return k;
}

PICO_HOST_DEVICE inline std::uint64_t pow_mod_2_64(std::uint64_t base, std::uint64_t exp) {
  std::uint64_t result = 1;
  for (; exp != 0; exp >>= 1, base *= base)
    if (exp & 1) result *= base;
  return result;
}
}  // namespace detail

// The exact result of reducing reduce_input over ranks 0..ranks-1 of np at
// `index`: ranks = np for every collective but the scans (rank r's prefix).
template <class T>
PICO_HOST_DEVICE T reduce_expected(Op op, int np, int ranks, std::uint64_t index) {
  const std::uint64_t span = static_cast<std::uint64_t>(ranks);
  const std::uint64_t start = index % kSumPeriod;
  switch (op) {
    case Op::sum:
      return static_cast<T>(detail::cyclic_sum(ranks, index) + static_cast<std::int64_t>(ranks) * sum_offset<T>());
    case Op::min:
    case Op::max: {
      const bool wraps = start + span > kSumPeriod;
      const std::int64_t lo = wraps ? 0 : static_cast<std::int64_t>(start);
      const std::int64_t hi = wraps ? static_cast<std::int64_t>(kSumPeriod - 1)
                                    : static_cast<std::int64_t>(start + span - 1);
      return static_cast<T>((op == Op::min ? lo : hi) + sum_offset<T>());
    }
    case Op::prod: {
      // The rank index % np contributes 2 when it is among the ranks; the others 1 or prod_factor.
      const std::uint64_t k = detail::prod_factor_count(np, ranks, index);
      const std::int64_t two = index % static_cast<std::uint64_t>(np) < span ? 2 : 1;
      if constexpr (std::is_unsigned_v<T>) {
        return static_cast<T>(static_cast<std::uint64_t>(two) *
                              detail::pow_mod_2_64(static_cast<std::uint64_t>(prod_factor<T>()), k));
      } else {
        return static_cast<T>(k % 2 == 0 ? two : -two);
      }
    }
    case Op::none: break;
  }
  return T{};
}

// Every value above repeats along the index, so a fill may compute one period
// and copy it (host_element_ops.cpp: a 4 MiB allreduce's buffers took 4.2-5.4
// ms to fill element by element, 0.35 ms so, on 2 ranks).
// payload: index * 7 mod 127. reduce_input and reduce_expected: index mod 17
// (sum, min, max); index mod np and mod 3 (prod).
constexpr std::uint64_t kPayloadPeriod = 127;
constexpr std::uint64_t reduce_period(Op op, int np) {
  if (op != Op::prod) return kSumPeriod;
  const auto n = static_cast<std::uint64_t>(np < 1 ? 1 : np);
  return n % 3 == 0 ? n : 3 * n;
}

// A value guaranteed to differ from `expected`: what untouched output buffers hold.
template <class T>
PICO_HOST_DEVICE T sentinel_for(T expected) {
  return static_cast<T>(expected + 1);
}

}  // namespace pico::pattern
