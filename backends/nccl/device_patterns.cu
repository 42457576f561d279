// SPDX-License-Identifier: BSD-3-Clause
// Grid-stride kernels over the closed forms of collectives/pattern.hpp. The
// 16-bit float types have no host arithmetic type, so their values are
// computed in float (every pattern value is a small integer, exact in both)
// and rounded to the storage type; comparisons go back through float.
#include "backends/nccl/device_patterns.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "collectives/pattern.hpp"

namespace pico::nccl::device_patterns {
namespace {

template <class T>
struct Storage {
  using Value = T;
  __device__ static T store(Value v) { return v; }
  __device__ static Value load(T t) { return t; }
};
template <>
struct Storage<__half> {
  using Value = float;
  __device__ static __half store(float v) { return __float2half_rn(v); }
  __device__ static float load(__half t) { return __half2float(t); }
};
template <>
struct Storage<__nv_bfloat16> {
  using Value = float;
  __device__ static __nv_bfloat16 store(float v) { return __float2bfloat16_rn(v); }
  __device__ static float load(__nv_bfloat16 t) { return __bfloat162float(t); }
};

constexpr int kThreads = 256;
constexpr std::uint64_t kMaxBlocks = 4096;

unsigned blocks_for(std::uint64_t n) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>((n + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

__device__ std::uint64_t first_element() { return blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; }
__device__ std::uint64_t grid_stride() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

template <class T>
__global__ void fill_payload_kernel(T* p, int source_rank, std::uint64_t first_index, std::uint64_t n, bool sentinel) {
  using V = typename Storage<T>::Value;
  for (std::uint64_t k = first_element(); k < n; k += grid_stride()) {
    const V v = pattern::payload<V>(source_rank, first_index + k);
    p[k] = Storage<T>::store(sentinel ? pattern::sentinel_for(v) : v);
  }
}

template <class T>
__global__ void count_payload_kernel(const T* p, int source_rank, std::uint64_t first_index, std::uint64_t n,
                                     Count* mismatches) {
  using V = typename Storage<T>::Value;
  Count bad = 0;
  for (std::uint64_t k = first_element(); k < n; k += grid_stride())
    bad += !(Storage<T>::load(p[k]) == pattern::payload<V>(source_rank, first_index + k));
  if (bad != 0) atomicAdd(mismatches, bad);
}

template <class T>
__global__ void fill_reduce_input_kernel(T* p, Op op, int rank, int np, std::uint64_t n) {
  using V = typename Storage<T>::Value;
  for (std::uint64_t k = first_element(); k < n; k += grid_stride())
    p[k] = Storage<T>::store(pattern::reduce_input<V>(op, rank, np, k));
}

template <class T>
__global__ void fill_reduce_sentinel_kernel(T* p, Op op, int np, int ranks, std::uint64_t first_index,
                                            std::uint64_t n) {
  using V = typename Storage<T>::Value;
  for (std::uint64_t k = first_element(); k < n; k += grid_stride())
    p[k] = Storage<T>::store(pattern::sentinel_for(pattern::reduce_expected<V>(op, np, ranks, first_index + k)));
}

template <class T>
__global__ void count_reduce_kernel(const T* p, Op op, int np, int ranks, std::uint64_t first_index,
                                    std::uint64_t n, Count* mismatches) {
  using V = typename Storage<T>::Value;
  Count bad = 0;
  for (std::uint64_t k = first_element(); k < n; k += grid_stride())
    bad += !(Storage<T>::load(p[k]) == pattern::reduce_expected<V>(op, np, ranks, first_index + k));
  if (bad != 0) atomicAdd(mismatches, bad);
}

// Calls f.template operator()<T>() with T the device storage type of d.
template <class F>
void visit_device_dtype(Dtype d, F&& f) {
  switch (d) {
    case Dtype::int8: return f.template operator()<std::int8_t>();
    case Dtype::uint8: return f.template operator()<std::uint8_t>();
    case Dtype::int16: return f.template operator()<std::int16_t>();
    case Dtype::int32: return f.template operator()<std::int32_t>();
    case Dtype::int64: return f.template operator()<std::int64_t>();
    case Dtype::float32: return f.template operator()<float>();
    case Dtype::float64: return f.template operator()<double>();
    case Dtype::float16: return f.template operator()<__half>();
    case Dtype::bfloat16: return f.template operator()<__nv_bfloat16>();
    case Dtype::none: break;
  }
  throw std::invalid_argument("no device datatype for " + std::string(name(d)));
}

void check_launch(const char* kernel) {
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw std::runtime_error(std::string(kernel) + ": " + cudaGetErrorString(e));
}

}  // namespace

void fill_payload(Dtype d, void* buf, int source_rank, std::uint64_t first_index, std::uint64_t n, bool sentinel,
                  cudaStream_t stream) {
  if (n == 0) return;
  visit_device_dtype(d, [&]<class T>() {
    fill_payload_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<T*>(buf), source_rank, first_index, n,
                                                                    sentinel);
  });
  check_launch("fill_payload");
}

void count_payload_mismatches(Dtype d, const void* buf, int source_rank, std::uint64_t first_index, std::uint64_t n,
                              Count* mismatches, cudaStream_t stream) {
  if (n == 0) return;
  visit_device_dtype(d, [&]<class T>() {
    count_payload_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const T*>(buf), source_rank,
                                                                     first_index, n, mismatches);
  });
  check_launch("count_payload_mismatches");
}

void fill_reduce_input(Dtype d, Op op, int np, void* buf, int rank, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return;
  visit_device_dtype(d, [&]<class T>() {
    fill_reduce_input_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<T*>(buf), op, rank, np, n);
  });
  check_launch("fill_reduce_input");
}

void fill_reduce_sentinel(Dtype d, Op op, int np, int ranks, void* buf, std::uint64_t first_index, std::uint64_t n,
                          cudaStream_t stream) {
  if (n == 0) return;
  visit_device_dtype(d, [&]<class T>() {
    fill_reduce_sentinel_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<T*>(buf), op, np, ranks,
                                                                            first_index, n);
  });
  check_launch("fill_reduce_sentinel");
}

void count_reduce_mismatches(Dtype d, Op op, int np, int ranks, const void* buf, std::uint64_t first_index,
                             std::uint64_t n, Count* mismatches, cudaStream_t stream) {
  if (n == 0) return;
  visit_device_dtype(d, [&]<class T>() {
    count_reduce_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const T*>(buf), op, np, ranks,
                                                                    first_index, n, mismatches);
  });
  check_launch("count_reduce_mismatches");
}

}  // namespace pico::nccl::device_patterns
