// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/element_ops.hpp"

#include <algorithm>
#include <cstring>

#include "collectives/pattern.hpp"

namespace pico {
namespace {

// p[k] = value(k) for k < n, computing one period and copying it in doubling
// blocks: p[k] = p[k - period] wherever k >= period (pattern.hpp).
template <class T, class Value>
void fill_periodic(T* p, std::uint64_t n, std::uint64_t period, Value value) {
  const std::uint64_t computed = std::min(n, period);
  for (std::uint64_t k = 0; k < computed; ++k) p[k] = value(k);
  for (std::uint64_t have = computed; have < n;) {
    const std::uint64_t block = std::min(have, n - have);
    std::memcpy(p + have, p, block * sizeof(T));
    have += block;
  }
}

}  // namespace

void HostElementOps::fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                                  std::uint64_t n) const {
  visit_dtype(dtype_, [&]<class T>() {
    fill_periodic(static_cast<T*>(buf) + offset, n, pattern::kPayloadPeriod,
                  [&](std::uint64_t k) { return pattern::payload<T>(source_rank, first_index + k); });
  });
}

void HostElementOps::fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank,
                                           std::uint64_t first_index, std::uint64_t n) const {
  visit_dtype(dtype_, [&]<class T>() {
    fill_periodic(static_cast<T*>(buf) + offset, n, pattern::kPayloadPeriod, [&](std::uint64_t k) {
      return pattern::sentinel_for(pattern::payload<T>(source_rank, first_index + k));
    });
  });
}

std::uint64_t HostElementOps::count_payload_mismatches(const void* buf, std::uint64_t offset, int source_rank,
                                                       std::uint64_t first_index, std::uint64_t n) const {
  return visit_dtype(dtype_, [&]<class T>() {
    const T* p = static_cast<const T*>(buf) + offset;
    std::uint64_t bad = 0;
    for (std::uint64_t k = 0; k < n; ++k) bad += !(p[k] == pattern::payload<T>(source_rank, first_index + k));
    return bad;
  });
}

void HostElementOps::fill_reduce_input(void* buf, int rank, std::uint64_t n) const {
  visit_dtype(dtype_, [&]<class T>() {
    fill_periodic(static_cast<T*>(buf), n, pattern::reduce_period(op_, np_),
                  [&](std::uint64_t k) { return pattern::reduce_input<T>(op_, rank, np_, k); });
  });
}

void HostElementOps::fill_reduce_sentinel(void* buf, std::uint64_t first_index, std::uint64_t n, int ranks) const {
  visit_dtype(dtype_, [&]<class T>() {
    fill_periodic(static_cast<T*>(buf), n, pattern::reduce_period(op_, np_), [&](std::uint64_t k) {
      return pattern::sentinel_for(pattern::reduce_expected<T>(op_, np_, ranks, first_index + k));
    });
  });
}

std::uint64_t HostElementOps::count_reduce_mismatches(const void* buf, std::uint64_t first_index, std::uint64_t n,
                                                      int ranks) const {
  return visit_dtype(dtype_, [&]<class T>() {
    const T* p = static_cast<const T*>(buf);
    std::uint64_t bad = 0;
    for (std::uint64_t k = 0; k < n; ++k) bad += !(p[k] == pattern::reduce_expected<T>(op_, np_, ranks, first_index + k));
    return bad;
  });
}

}  // namespace pico
