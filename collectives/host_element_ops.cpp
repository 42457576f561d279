// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/element_ops.hpp"
#include "collectives/pattern.hpp"

namespace pico {

void HostElementOps::fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                                  std::uint64_t n) const {
  visit_dtype(dtype_, [&]<class T>() {
    T* p = static_cast<T*>(buf) + offset;
    for (std::uint64_t k = 0; k < n; ++k) p[k] = pattern::payload<T>(source_rank, first_index + k);
  });
}

void HostElementOps::fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank,
                                           std::uint64_t first_index, std::uint64_t n) const {
  visit_dtype(dtype_, [&]<class T>() {
    T* p = static_cast<T*>(buf) + offset;
    for (std::uint64_t k = 0; k < n; ++k)
      p[k] = pattern::sentinel_for(pattern::payload<T>(source_rank, first_index + k));
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
    T* p = static_cast<T*>(buf);
    for (std::uint64_t k = 0; k < n; ++k) p[k] = pattern::reduce_input<T>(op_, rank, np_, k);
  });
}

void HostElementOps::fill_reduce_sentinel(void* buf, std::uint64_t first_index, std::uint64_t n, int ranks) const {
  visit_dtype(dtype_, [&]<class T>() {
    T* p = static_cast<T*>(buf);
    for (std::uint64_t k = 0; k < n; ++k)
      p[k] = pattern::sentinel_for(pattern::reduce_expected<T>(op_, np_, ranks, first_index + k));
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
