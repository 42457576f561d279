// SPDX-License-Identifier: BSD-3-Clause
// max |x| on the GPU, as on the CPU (max_abs.cpp): an unsigned maximum over
// the bit patterns with the sign cleared, which orders like |x| for non-NaN
// floats and is exact, so any reduction order gives the CPU's result.
// Two launches and no atomics: each CTA writes its partial maximum to the
// workspace, then one CTA reduces the partials into *d_result.
#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

// At most this many CTAs (and partials): about one wave of 8 CTAs of 256
// threads per multiprocessor on a 132-SM H100, plenty to saturate memory.
constexpr unsigned kMaxPartials = 1024;
constexpr std::uint32_t kMagnitude = 0x7FFFFFFFu;

__device__ __forceinline__ std::uint32_t max4(uint4 v, std::uint32_t m) {
  m = max(m, v.x & kMagnitude);
  m = max(m, v.y & kMagnitude);
  m = max(m, v.z & kMagnitude);
  return max(m, v.w & kMagnitude);
}

// The maximum of `m` over the CTA, valid in thread 0 (blockDim.x == kThreads).
__device__ std::uint32_t block_max(std::uint32_t m) {
  __shared__ std::uint32_t warp_max[detail::kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) {
    m = max(m, __shfl_xor_sync(0xFFFFFFFFu, m, offset));
  }
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  if (lane == 0) {
    warp_max[warp] = m;
  }
  __syncthreads();
  if (warp == 0) {
    m = lane < detail::kThreads / 32 ? warp_max[lane] : 0u;
    for (int offset = 16; offset > 0; offset /= 2) {
      m = max(m, __shfl_xor_sync(0xFFFFFFFFu, m, offset));
    }
  }
  return m;
}

// partials[blockIdx.x] = max magnitude bits of this CTA's grid-stride share.
// vector: x is 16-byte aligned, so groups of 4 load as one uint4.
__global__ void __launch_bounds__(detail::kThreads)
    max_abs_partials(const float* __restrict__ x, std::uint64_t n, bool vector, std::uint32_t* __restrict__ partials) {
  const std::uint64_t stride = detail::grid_stride();
  std::uint32_t m = 0;
  const std::uint64_t groups = vector ? n / 4 : 0;
  const uint4* x4 = reinterpret_cast<const uint4*>(x);
  std::uint64_t j = detail::thread_index();
  // Two independent loads per iteration keep more bytes in flight.
  for (; j + stride < groups; j += 2 * stride) {
    const uint4 a = x4[j];
    const uint4 b = x4[j + stride];
    m = max4(b, max4(a, m));
  }
  if (j < groups) {
    m = max4(x4[j], m);
  }
  for (std::uint64_t i = 4 * groups + detail::thread_index(); i < n; i += stride) {
    m = max(m, __float_as_uint(x[i]) & kMagnitude);
  }
  m = block_max(m);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = m;
  }
}

// *result = the float whose bits are the maximum of partials[0, count).
__global__ void __launch_bounds__(detail::kThreads)
    max_abs_final(const std::uint32_t* __restrict__ partials, unsigned count, float* __restrict__ result) {
  std::uint32_t m = 0;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) {
    m = max(m, partials[i]);
  }
  m = block_max(m);
  if (threadIdx.x == 0) {
    *result = __uint_as_float(m);
  }
}

}  // namespace

MaxAbsWorkspace::MaxAbsWorkspace() : partials_(kMaxPartials * sizeof(std::uint32_t)) {}

void max_abs(const float* x, std::size_t n, float* d_result, MaxAbsWorkspace& workspace, cudaStream_t stream) {
  if (n == 0) {
    check_cuda(cudaMemsetAsync(d_result, 0, sizeof(float), stream), "max_abs: cudaMemsetAsync");
    return;
  }
  const bool vector = detail::aligned_to(x, 16);
  const std::uint64_t items = vector ? (n + 3) / 4 : n;
  const unsigned grid = std::min(detail::grid_for(items, 8), kMaxPartials);
  max_abs_partials<<<grid, detail::kThreads, 0, stream>>>(x, n, vector, workspace.partials());
  detail::check_launch("max_abs_partials");
  max_abs_final<<<1, detail::kThreads, 0, stream>>>(workspace.partials(), grid, d_result);
  detail::check_launch("max_abs_final");
}

}  // namespace pico::compressed::gpu
