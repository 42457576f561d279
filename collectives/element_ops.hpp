// SPDX-License-Identifier: BSD-3-Clause
// The element-wise steps every collective's validation is made of: write the
// closed-form payload or reduction input of a region, write values that differ
// from the expected result, count the elements that differ from it. The spec
// files compose them per collective; where the buffers live decides the
// implementation: host loops here, CUDA kernels in backends/nccl.
#pragma once

#include <cstdint>

#include "core/case.hpp"

namespace pico {

// Bound to one case's datatype, operation and process count. A region is
// `n` elements starting `offset` elements into `buf`.
class ElementOps {
 public:
  virtual ~ElementOps() = default;
  // buf[offset + k] = payload(source_rank, first_index + k), k < n.
  virtual void fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                            std::uint64_t n) const = 0;
  // buf[offset + k] = a value unequal to payload(source_rank, first_index + k).
  virtual void fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                                     std::uint64_t n) const = 0;
  virtual std::uint64_t count_payload_mismatches(const void* buf, std::uint64_t offset, int source_rank,
                                                 std::uint64_t first_index, std::uint64_t n) const = 0;
  // buf[k] = reduce_input(op, rank, np, k), k < n.
  virtual void fill_reduce_input(void* buf, int rank, std::uint64_t n) const = 0;
  // buf[k] = a value unequal to reduce_expected(op, np, ranks, first_index + k): the
  // reduction over ranks 0..ranks-1 (np but for the scans, whose rank r holds a prefix).
  virtual void fill_reduce_sentinel(void* buf, std::uint64_t first_index, std::uint64_t n, int ranks) const = 0;
  virtual std::uint64_t count_reduce_mismatches(const void* buf, std::uint64_t first_index, std::uint64_t n,
                                                int ranks) const = 0;
};

// Host memory, host datatypes (visit_dtype).
class HostElementOps final : public ElementOps {
 public:
  explicit HostElementOps(const Case& c) : dtype_(c.dtype), op_(c.op), np_(c.np) {}
  void fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                    std::uint64_t n) const override;
  void fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                             std::uint64_t n) const override;
  std::uint64_t count_payload_mismatches(const void* buf, std::uint64_t offset, int source_rank,
                                         std::uint64_t first_index, std::uint64_t n) const override;
  void fill_reduce_input(void* buf, int rank, std::uint64_t n) const override;
  void fill_reduce_sentinel(void* buf, std::uint64_t first_index, std::uint64_t n, int ranks) const override;
  std::uint64_t count_reduce_mismatches(const void* buf, std::uint64_t first_index, std::uint64_t n,
                                        int ranks) const override;

 private:
  Dtype dtype_;
  Op op_;
  int np_;
};

}  // namespace pico
