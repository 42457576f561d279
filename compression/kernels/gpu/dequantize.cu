// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD decoding on the GPU: out[i] = sums[i] * factor, bit-identical to
// the CPU's dequantize with the factor its caller computes,
// scale / (float(levels) * float(ranks)), here from the scale on the device.
// Four codes per load and one float4 store per four codes when the pointers
// are aligned, laid out so that every warp access is contiguous (below).
#include <stdexcept>

#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

// Four codes in one load: 4 bytes of int8 or 8 bytes of int16 codes.
template <typename Code>
struct Codes4;
template <>
struct Codes4<std::int8_t> {
  using type = char4;
};
template <>
struct Codes4<std::int16_t> {
  using type = short4;
};

// float(v) for |v| < 2^22 without the conversion unit (an eighth of the FP32
// rate): v added to 1.5 * 2^23's bits, where a float's unit in the last place
// is 1, then 1.5 * 2^23 subtracted; both exact.
__device__ __forceinline__ float small_float(int v) { return __fsub_rn(__int_as_float(0x4B400000 + v), 12582912.0f); }

template <typename Codes>
__device__ __forceinline__ float4 decode4(const Codes& c, float factor) {
  return make_float4(__fmul_rn(small_float(c.x), factor), __fmul_rn(small_float(c.y), factor),
                     __fmul_rn(small_float(c.z), factor), __fmul_rn(small_float(c.w), factor));
}

// Each step, a thread decodes kUnroll groups of four codes, `stride` groups
// apart: the warp's loads and its float4 stores are each one contiguous run
// (the store side is 4x the load side, and it is the stores that decide the
// speed: a thread writing 64 contiguous bytes left each warp store spread
// over 2 KiB, and the kernel at 62% of a device copy on an H100), and the
// kUnroll independent loads keep enough bytes in flight.
template <typename Code>
__global__ void __launch_bounds__(detail::kThreads)
    dequantize_kernel(const Code* __restrict__ sums, std::uint64_t n, const float* __restrict__ d_scale, int levels,
                      int ranks, bool vector, float* __restrict__ out) {
  constexpr int kUnroll = 4;
  using Codes = typename Codes4<Code>::type;
  // The CPU caller's float expression, each step rounded on its own.
  const float factor = __fdiv_rn(*d_scale, __fmul_rn(static_cast<float>(levels), static_cast<float>(ranks)));
  const std::uint64_t groups = vector ? n / 4 : 0;
  const std::uint64_t stride = detail::grid_stride();
  const auto* in4 = reinterpret_cast<const Codes*>(sums);
  auto* out4 = reinterpret_cast<float4*>(out);
  std::uint64_t j = detail::thread_index();
  for (; j + (kUnroll - 1) * stride < groups; j += kUnroll * stride) {
    Codes c[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) c[u] = in4[j + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out4[j + u * stride] = decode4(c[u], factor);
  }
  for (; j < groups; j += stride) out4[j] = decode4(in4[j], factor);
  for (std::uint64_t i = groups * 4 + detail::thread_index(); i < n; i += stride) {
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
  const bool vector = detail::aligned_to(sums, 4 * sizeof(Code)) && detail::aligned_to(out, 16);
  // A grid of a few waves: each thread takes kUnroll groups per step.
  const std::uint64_t items = vector ? (n + 15) / 16 : n;
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
