// SPDX-License-Identifier: BSD-3-Clause
// Top-k's sparse scatter, error feedback and the final 1/p scaling on the
// GPU, bit-identical to error_feedback.cpp and the backends' scale_by: each
// element sees the same single float operation as on the CPU.
#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

// dense[indices[j]] += values[j] for j < k. Plain read-add-write with
// __fadd_rn, the CPU's one rounding, since the caller guarantees distinct
// indices within a launch. Float atomics would add repeated indices in no
// fixed order and, as the PTX ISA documents atom/red.add.f32, flush
// subnormal operands and results to zero, which the CPU does not.
__global__ void __launch_bounds__(detail::kThreads)
    scatter_add_kernel(const std::uint32_t* __restrict__ indices, const float* __restrict__ values, std::uint64_t k,
                       float* __restrict__ dense, std::uint64_t n) {
  for (std::uint64_t j = detail::thread_index(); j < k; j += detail::grid_stride()) {
    const std::uint32_t i = indices[j];
    if (i < n) {
      dense[i] = __fadd_rn(dense[i], values[j]);
    }
  }
}

__global__ void __launch_bounds__(detail::kThreads)
    zero_at_kernel(const std::uint32_t* __restrict__ indices, std::uint64_t k, float* __restrict__ x, std::uint64_t n) {
  for (std::uint64_t j = detail::thread_index(); j < k; j += detail::grid_stride()) {
    const std::uint32_t i = indices[j];
    if (i < n) {
      x[i] = 0.0f;
    }
  }
}

// corrected = x + residual; pointers may alias element for element (each
// element is read and written by the same thread), hence no __restrict__.
__global__ void __launch_bounds__(detail::kThreads)
    add_kernel(const float* x, const float* residual, std::uint64_t n, bool vector, float* corrected) {
  const std::uint64_t groups = vector ? n / 4 : 0;
  const std::uint64_t stride = detail::grid_stride();
  for (std::uint64_t j = detail::thread_index(); j < groups; j += stride) {
    const float4 a = reinterpret_cast<const float4*>(x)[j];
    const float4 b = reinterpret_cast<const float4*>(residual)[j];
    reinterpret_cast<float4*>(corrected)[j] =
        make_float4(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y), __fadd_rn(a.z, b.z), __fadd_rn(a.w, b.w));
  }
  for (std::uint64_t i = 4 * groups + detail::thread_index(); i < n; i += stride) {
    corrected[i] = __fadd_rn(x[i], residual[i]);
  }
}

__global__ void __launch_bounds__(detail::kThreads)
    scale_kernel(float* __restrict__ x, std::uint64_t n, bool vector, float factor) {
  const std::uint64_t groups = vector ? n / 4 : 0;
  const std::uint64_t stride = detail::grid_stride();
  for (std::uint64_t j = detail::thread_index(); j < groups; j += stride) {
    float4 a = reinterpret_cast<const float4*>(x)[j];
    a = make_float4(__fmul_rn(a.x, factor), __fmul_rn(a.y, factor), __fmul_rn(a.z, factor), __fmul_rn(a.w, factor));
    reinterpret_cast<float4*>(x)[j] = a;
  }
  for (std::uint64_t i = 4 * groups + detail::thread_index(); i < n; i += stride) {
    x[i] = __fmul_rn(x[i], factor);
  }
}

}  // namespace

void scatter_add(const std::uint32_t* indices, const float* values, std::size_t m, float* dense, std::size_t n,
                 cudaStream_t stream) {
  scatter_add_blocks(indices, values, m, 1, m, dense, n, stream);
}

void scatter_add_blocks(const std::uint32_t* indices, const float* values, std::size_t k, int ranks,
                        std::size_t stride, float* dense, std::size_t n, cudaStream_t stream) {
  if (k == 0 || ranks <= 0) {
    return;
  }
  const unsigned grid = detail::grid_for(k);
  // Launches on one stream run in order, so block r's additions land after
  // block r - 1's: the CPU's rank order, without atomics.
  for (int r = 0; r < ranks; ++r) {
    const std::size_t base = static_cast<std::size_t>(r) * stride;
    scatter_add_kernel<<<grid, detail::kThreads, 0, stream>>>(indices + base, values + base, k, dense, n);
    detail::check_launch("scatter_add_blocks");
  }
}

void residual_after_topk(const float* corrected, std::size_t n, const std::uint32_t* indices, std::size_t k,
                         float* residual, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  if (residual != corrected) {
    check_cuda(cudaMemcpyAsync(residual, corrected, n * sizeof(float), cudaMemcpyDeviceToDevice, stream),
               "residual_after_topk: cudaMemcpyAsync");
  }
  if (k > 0) {
    zero_at_kernel<<<detail::grid_for(k), detail::kThreads, 0, stream>>>(indices, k, residual, n);
    detail::check_launch("residual_after_topk");
  }
}

void add_residual(const float* x, const float* residual, std::size_t n, float* corrected, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  const bool vector =
      detail::aligned_to(x, 16) && detail::aligned_to(residual, 16) && detail::aligned_to(corrected, 16);
  add_kernel<<<detail::grid_for(vector ? (n + 3) / 4 : n), detail::kThreads, 0, stream>>>(x, residual, n, vector,
                                                                                          corrected);
  detail::check_launch("add_residual");
}

void scale(float* x, std::size_t n, float factor, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  const bool vector = detail::aligned_to(x, 16);
  scale_kernel<<<detail::grid_for(vector ? (n + 3) / 4 : n), detail::kThreads, 0, stream>>>(x, n, vector, factor);
  detail::check_launch("scale");
}

}  // namespace pico::compressed::gpu
