// SPDX-License-Identifier: BSD-3-Clause
// ElementOps over device buffers: the spec files' fill and check, run as CUDA
// kernels on the backend's stream. Counting waits for the stream.
#pragma once

#include <cuda_runtime_api.h>

#include "backends/nccl/device_patterns.hpp"
#include "collectives/element_ops.hpp"

namespace pico::nccl {

class DeviceElementOps final : public ElementOps {
 public:
  // counter: one device word the counts use (the caller owns it).
  DeviceElementOps(const Case& c, cudaStream_t stream, device_patterns::Count* counter)
      : dtype_(c.dtype), op_(c.op), np_(c.np), element_(dtype_size(c.dtype)), stream_(stream), counter_(counter) {}
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
  template <class P>
  P* at(P* buf, std::uint64_t offset) const;
  // Zeroes the counter, runs `count` (which enqueues a counting kernel), waits, returns the count.
  template <class F>
  std::uint64_t counted(F&& count) const;

  Dtype dtype_;
  Op op_;
  int np_;
  std::size_t element_;
  cudaStream_t stream_;
  device_patterns::Count* counter_;
};

}  // namespace pico::nccl
