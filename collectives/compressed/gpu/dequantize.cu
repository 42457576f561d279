// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD decoding on the GPU: out[i] = sums[i] * factor, bit-identical to
// the CPU's dequantize with the factor its caller computes,
// scale / (float(levels) * float(ranks)), here from the scale on the device.
// 16 bytes of codes per thread and step (one uint4 load, 2 or 4 float4
// stores) when both pointers are 16-byte aligned, so the loads keep enough
// bytes in flight to stream at memory speed.
#include <stdexcept>

#include "collectives/compressed/gpu/gpu_kernels.hpp"
#include "collectives/compressed/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

// Code `c` (0-based) of a uint4 holding 16 / sizeof(Code) codes in memory order (little endian).
template <typename Code>
__device__ __forceinline__ float code_at(const uint4& v, int c);

template <>
__device__ __forceinline__ float code_at<std::int8_t>(const uint4& v, int c) {
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
  const auto byte = static_cast<std::uint8_t>(words[c / 4] >> (8 * (c % 4)));
  return static_cast<float>(static_cast<std::int8_t>(byte));
}

template <>
__device__ __forceinline__ float code_at<std::int16_t>(const uint4& v, int c) {
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
  const auto half = static_cast<std::uint16_t>(words[c / 2] >> (16 * (c % 2)));
  return static_cast<float>(static_cast<std::int16_t>(half));
}

template <typename Code>
__global__ void __launch_bounds__(detail::kThreads)
    dequantize_kernel(const Code* __restrict__ sums, std::uint64_t n, const float* __restrict__ d_scale, int levels,
                      int ranks, bool vector, float* __restrict__ out) {
  // The CPU caller's float expression, each step rounded on its own.
  const float factor = __fdiv_rn(*d_scale, __fmul_rn(static_cast<float>(levels), static_cast<float>(ranks)));
  constexpr int kPerLoad = 16 / sizeof(Code);
  const std::uint64_t groups = vector ? n / kPerLoad : 0;
  const std::uint64_t stride = detail::grid_stride();
  for (std::uint64_t j = detail::thread_index(); j < groups; j += stride) {
    const uint4 v = reinterpret_cast<const uint4*>(sums)[j];
    float4* o = reinterpret_cast<float4*>(out + j * kPerLoad);
#pragma unroll
    for (int q = 0; q < kPerLoad / 4; ++q) {
      o[q] = make_float4(__fmul_rn(code_at<Code>(v, 4 * q + 0), factor),
                         __fmul_rn(code_at<Code>(v, 4 * q + 1), factor),
                         __fmul_rn(code_at<Code>(v, 4 * q + 2), factor),
                         __fmul_rn(code_at<Code>(v, 4 * q + 3), factor));
    }
  }
  for (std::uint64_t i = groups * kPerLoad + detail::thread_index(); i < n; i += stride) {
    out[i] = __fmul_rn(static_cast<float>(sums[i]), factor);
  }
}

template <typename Code>
void dequantize_codes(const Code* sums, std::size_t n, const float* d_scale, int levels, int ranks, float* out,
                      cudaStream_t stream) {
  if (levels < 1 || ranks < 1) {
    throw std::invalid_argument("gpu::dequantize: levels and ranks must be at least 1");
  }
  if (n == 0) {
    return;
  }
  constexpr std::size_t kPerLoad = 16 / sizeof(Code);
  const bool vector = detail::aligned_to(sums, 16) && detail::aligned_to(out, 16);
  const std::uint64_t items = vector ? (n + kPerLoad - 1) / kPerLoad : n;
  dequantize_kernel<Code><<<detail::grid_for(items), detail::kThreads, 0, stream>>>(sums, n, d_scale, levels, ranks,
                                                                                     vector, out);
  detail::check_launch("dequantize");
}

}  // namespace

void dequantize(const std::int8_t* sums, std::size_t n, const float* d_scale, int levels, int ranks, float* out,
                cudaStream_t stream) {
  dequantize_codes(sums, n, d_scale, levels, ranks, out, stream);
}

void dequantize(const std::int16_t* sums, std::size_t n, const float* d_scale, int levels, int ranks, float* out,
                cudaStream_t stream) {
  dequantize_codes(sums, n, d_scale, levels, ranks, out, stream);
}

}  // namespace pico::compressed::gpu
