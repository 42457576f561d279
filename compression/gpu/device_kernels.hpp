// SPDX-License-Identifier: BSD-3-Clause
// The GPU backend's CompressionKernels (compression/allreduce/collective_transport.hpp):
// compression/kernels/gpu/ on device memory, enqueued on the session's
// stream; each result equals the host kernel's bit for bit. Inline forwards,
// as HostKernels is on the CPU.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "compression/allreduce/collective_transport.hpp"
#include "compression/gpu/nccl_collectives.hpp"
#include "compression/kernels/gpu/gpu_kernels.hpp"

namespace pico::compressed::gpu {

class DeviceKernels {
 public:
  DeviceKernels(cudaStream_t stream, FirstErrors& errors) : stream_(stream), errors_(&errors) {}

  template <class T>
  using Array = cuda::DeviceArray<T>;
  template <class T>
  static Array<T> array(std::size_t count) {
    return Array<T>(std::max<std::size_t>(count, 1));  // never a null pointer, even for n = 0
  }

  using MaxAbsWorkspace = compressed::gpu::MaxAbsWorkspace;
  struct TopkWorkspace {
    TopkWorkspace(std::size_t n, bool error_feedback) : select(n), corrected(error_feedback ? std::max<std::size_t>(n, 1) : 0) {}
    compressed::gpu::TopkWorkspace select;
    cuda::DeviceArray<float> corrected;  // x + residual (error feedback only)
  };
  struct PairsMeanWorkspace {
    PairsMeanWorkspace(const std::byte*, std::size_t, int) {}
  };

  void zero(float* x, std::size_t n) { errors_->note(cudaMemsetAsync(x, 0, n * sizeof(float), stream_)); }
  void scale(float* x, std::size_t n, float factor) { compressed::gpu::scale(x, n, factor, stream_); }
  void max_abs(const float* x, std::size_t n, float* result, MaxAbsWorkspace& w) {
    compressed::gpu::max_abs(x, n, result, w, stream_);
  }
  template <class Code>
  void quantize_standard(const float* x, std::size_t n, const float* scale, int levels, compressed::RandomStream rng,
                         std::uint64_t first_index, Code* codes) {
    compressed::gpu::quantize_standard(x, n, scale, levels, rng, first_index, codes, stream_);
  }
  template <class Code>
  void dequantize(const Code* sums, std::size_t n, const float* scale, int levels, int ranks, float* out) {
    compressed::gpu::dequantize(sums, n, scale, levels, ranks, out, stream_);
  }
  void topk_select(const float* x, std::size_t n, std::size_t k, std::uint32_t* indices, float* values,
                   TopkWorkspace& w) {
    compressed::gpu::topk_select(x, n, k, indices, values, w.select, stream_);
  }
  // Three kernels, each its phase: corrected = x + r; select on corrected; r = corrected with the sent zeroed.
  template <class Mark>
  void topk_select_with_residual(const float* x, std::size_t n, float* residual, std::size_t k,
                                 std::uint32_t* indices, float* values, TopkWorkspace& w, Mark& mark) {
    mark("error_feedback");
    compressed::gpu::add_residual(x, residual, n, w.corrected.data(), stream_);
    mark("compress");
    compressed::gpu::topk_select(w.corrected.data(), n, k, indices, values, w.select, stream_);
    mark("error_feedback");
    compressed::gpu::residual_after_topk(w.corrected.data(), n, indices, k, residual, stream_);
  }
  // Zero, add the ranks' blocks in rank order (deterministic, no float atomics), scale.
  void mean_of_pairs(const std::byte* gathered, std::size_t k, int ranks, float factor, float* out, std::size_t n,
                     PairsMeanWorkspace&) {
    zero(out, n);
    const std::uint32_t* indices = compressed::pair_message(gathered, k, 0);
    compressed::gpu::scatter_add_blocks(indices, reinterpret_cast<const float*>(indices + k), k, ranks, 2 * k, out, n,
                                        stream_);
    scale(out, n, factor);
  }

 private:
  cudaStream_t stream_;
  FirstErrors* errors_;
};

static_assert(compressed::CompressionKernels<DeviceKernels>);

}  // namespace pico::compressed::gpu
