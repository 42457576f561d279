// SPDX-License-Identifier: BSD-3-Clause
// Internal to the .cu files of compression/kernels/gpu/: launch
// configuration, launch checks and the grid-stride indices.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "support/cuda_resources.hpp"

namespace pico::compressed::gpu::detail {

using cuda::check_cuda;

inline constexpr int kThreads = 256;

// Throws if the launch just made failed (bad configuration, no device, an
// earlier asynchronous error).
inline void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

inline int multiprocessor_count() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  int sms = 0;
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return std::max(sms, 1);
}

// CTAs of kThreads for `items` work items (> 0) handled by grid-stride loops:
// one per kThreads items, at most `ctas_per_sm` per multiprocessor (a few
// waves: enough memory parallelism, no huge grids). Always within grid.x's
// limit of 2^31 - 1.
inline unsigned grid_for(std::uint64_t items, int ctas_per_sm = 32) {
  const std::uint64_t wanted = (items + kThreads - 1) / kThreads;
  const std::uint64_t cap =
      static_cast<std::uint64_t>(multiprocessor_count()) * static_cast<std::uint64_t>(ctas_per_sm);
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, cap)));
}

inline bool aligned_to(const void* p, std::size_t bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// 64-bit grid-stride loop bounds: start at the global thread id, step by the grid.
__device__ __forceinline__ std::uint64_t thread_index() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t grid_stride() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

}  // namespace pico::compressed::gpu::detail
