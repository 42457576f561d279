// Building blocks the per-collective spec files share: typed fills and checks
// over the closed-form patterns, and the common bandwidth factors.
#pragma once

#include <cstdint>

#include "collectives/pattern.hpp"
#include "collectives/spec.hpp"

namespace pico::spec {

inline double factor_one(int) { return 1.0; }
inline double factor_np(int np) { return np; }
inline double factor_ring(int np) { return np > 0 ? static_cast<double>(np - 1) / np : 0.0; }
inline double factor_allreduce(int np) { return 2.0 * factor_ring(np); }

template <class T>
void fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index, std::uint64_t n) {
  T* p = static_cast<T*>(buf) + offset;
  for (std::uint64_t k = 0; k < n; ++k) p[k] = pattern::payload<T>(source_rank, first_index + k);
}

template <class T>
void fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                           std::uint64_t n) {
  T* p = static_cast<T*>(buf) + offset;
  for (std::uint64_t k = 0; k < n; ++k) p[k] = pattern::sentinel_for(pattern::payload<T>(source_rank, first_index + k));
}

template <class T>
std::uint64_t count_payload_mismatches(const void* buf, std::uint64_t offset, int source_rank,
                                       std::uint64_t first_index, std::uint64_t n) {
  const T* p = static_cast<const T*>(buf) + offset;
  std::uint64_t bad = 0;
  for (std::uint64_t k = 0; k < n; ++k) bad += !(p[k] == pattern::payload<T>(source_rank, first_index + k));
  return bad;
}

template <class T>
void fill_reduce_input(const Case& c, void* buf, int rank, std::uint64_t n) {
  T* p = static_cast<T*>(buf);
  for (std::uint64_t k = 0; k < n; ++k) p[k] = pattern::reduce_input<T>(c.op, rank, c.np, k);
}

template <class T>
void fill_reduce_sentinel(const Case& c, void* buf, std::uint64_t first_index, std::uint64_t n) {
  T* p = static_cast<T*>(buf);
  for (std::uint64_t k = 0; k < n; ++k)
    p[k] = pattern::sentinel_for(pattern::reduce_expected<T>(c.op, c.np, first_index + k));
}

template <class T>
std::uint64_t count_reduce_mismatches(const Case& c, const void* buf, std::uint64_t first_index, std::uint64_t n) {
  const T* p = static_cast<const T*>(buf);
  std::uint64_t bad = 0;
  for (std::uint64_t k = 0; k < n; ++k) bad += !(p[k] == pattern::reduce_expected<T>(c.op, c.np, first_index + k));
  return bad;
}

}  // namespace pico::spec
