// SPDX-License-Identifier: BSD-3-Clause
// The closed-form validation values (collectives/pattern.hpp) written and
// checked on the device by CUDA kernels, for buffers NCCL reads and writes.
// Every function enqueues on `stream` and returns at once; the counts land in
// the device word `mismatches` (added to, not overwritten).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/types.hpp"

namespace pico::nccl::device_patterns {

using Count = unsigned long long;

void fill_payload(Dtype d, void* buf, int source_rank, std::uint64_t first_index, std::uint64_t n, bool sentinel,
                  cudaStream_t stream);
void count_payload_mismatches(Dtype d, const void* buf, int source_rank, std::uint64_t first_index, std::uint64_t n,
                              Count* mismatches, cudaStream_t stream);
void fill_reduce_input(Dtype d, Op op, int np, void* buf, int rank, std::uint64_t n, cudaStream_t stream);
// `ranks`: the result reduces ranks 0..ranks-1 of np (ElementOps).
void fill_reduce_sentinel(Dtype d, Op op, int np, int ranks, void* buf, std::uint64_t first_index, std::uint64_t n,
                          cudaStream_t stream);
void count_reduce_mismatches(Dtype d, Op op, int np, int ranks, const void* buf, std::uint64_t first_index,
                             std::uint64_t n, Count* mismatches, cudaStream_t stream);

}  // namespace pico::nccl::device_patterns
