// SPDX-License-Identifier: BSD-3-Clause
// CUDA versions of the compressed-allreduce kernels (compression/kernels/kernels.hpp):
// Global-QSGD standard dithering and Top-k with error feedback.
//
// Every function takes device pointers, enqueues its work on `stream` and
// returns without waiting: no host synchronisation and no allocation inside
// (scratch lives in a caller-owned workspace). Configuration and launch
// failures throw std::runtime_error with the CUDA error string; errors of the
// kernels themselves surface at the caller's next synchronisation.
//
// Results are bit-identical to the CPU kernels for the same inputs: same
// Philox uniforms (philox_core.hpp), same float operations in the same order
// (the .cu files use the _rn intrinsics, which nvcc never fuses into an FMA).
//
// A workspace may serve one stream at a time: two calls in flight on
// different streams with the same workspace race.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "compression/kernels/kernels.hpp"
#include "support/cuda_resources.hpp"

namespace pico::compressed::gpu {

// The kernels take and return the generic CUDA owners.
using cuda::check_cuda;
using cuda::DeviceArray;
using cuda::DeviceBuffer;
using cuda::Event;
using cuda::Stream;
using cuda::to_device;
using cuda::to_host;

// ---- max |x| -----------------------------------------------------------------

// Per-CTA partial maxima for max_abs: allocated once (on the current device),
// good for any n.
class MaxAbsWorkspace {
 public:
  MaxAbsWorkspace();
  std::uint32_t* partials() const { return partials_.as<std::uint32_t>(); }

 private:
  DeviceBuffer partials_;
};

// *d_result = max |x[i]| (0 for n == 0), left on the device so that it can
// feed a MAX allreduce without a host round trip. NaN-free inputs assumed
// (as on the CPU: the maximum is taken over the magnitude bit patterns).
void max_abs(const float* x, std::size_t n, float* d_result, MaxAbsWorkspace& workspace, cudaStream_t stream);

// ---- Global-QSGD, standard dithering ------------------------------------------

// codes[i] = the CPU's quantize_standard code of x[i] with scale = *d_scale,
// u = uniform_at(rng, first_index + i); bit-identical to the CPU. The scale is
// read on the device (it comes out of the MAX allreduce). *d_scale == 0 or
// levels <= 0 give all-zero codes. Requires |x| <= scale.
void quantize_standard(const float* x, std::size_t n, const float* d_scale, int levels, RandomStream rng,
                       std::uint64_t first_index, std::int8_t* codes, cudaStream_t stream);
void quantize_standard(const float* x, std::size_t n, const float* d_scale, int levels, RandomStream rng,
                       std::uint64_t first_index, std::int16_t* codes, cudaStream_t stream);

// out[i] = sums[i] * factor with factor = *d_scale / (float(levels) * float(ranks))
// rounded in float as the CPU's caller computes it (compression/families/global_qsgd.cpp):
// the mean of `ranks` ranks' codes. Throws std::invalid_argument unless levels, ranks >= 1.
void dequantize(const std::int8_t* sums, std::size_t n, const float* d_scale, int levels, int ranks, float* out,
                cudaStream_t stream);
void dequantize(const std::int16_t* sums, std::size_t n, const float* d_scale, int levels, int ranks, float* out,
                cudaStream_t stream);

// ---- Top-k -------------------------------------------------------------------

// Scratch for topk_select on inputs of up to max_n elements: radix
// histogram, selection state, the candidate list (max_n / 8 keys, 8 bytes
// each: an input of 1 GiB takes 256 MiB more), per-chunk counts and offsets,
// CUB's scan storage, and the CUDA graph of the last selection's launches;
// allocated in the constructor (on the current device).
class TopkWorkspace {
 public:
  explicit TopkWorkspace(std::size_t max_n);
  std::size_t max_n() const { return max_n_; }
  // The number of elements the last topk_select selected (a device int64;
  // equals k by construction, exposed for tests).
  const std::int64_t* selected_count() const { return selected_.as<std::int64_t>(); }

  // Internal to topk_select.
  std::uint32_t* histogram() const { return histogram_.as<std::uint32_t>(); }
  void* state() const { return state_.data(); }
  std::int64_t* selected() const { return selected_.as<std::int64_t>(); }
  std::uint64_t* candidates() const { return candidates_.as<std::uint64_t>(); }
  std::uint64_t candidate_capacity() const;
  std::uint32_t* chunk_counts() const { return chunk_counts_.as<std::uint32_t>(); }
  std::uint32_t* chunk_offsets() const { return chunk_offsets_.as<std::uint32_t>(); }
  void* scan_storage() const { return scan_.data(); }
  std::size_t scan_bytes() const { return scan_.bytes(); }
  // What the captured graph's launches were made for.
  struct GraphKey {
    const float* x = nullptr;
    std::size_t n = 0, k = 0;
    std::uint32_t* indices = nullptr;
    float* values = nullptr;
    cudaStream_t stream = nullptr;
    bool operator==(const GraphKey&) const = default;
  };
  cuda::Graph& graph() { return graph_; }
  const GraphKey& graph_key() const { return graph_key_; }
  void set_graph_key(const GraphKey& key) { graph_key_ = key; }

 private:
  std::size_t max_n_;
  DeviceBuffer histogram_;
  DeviceBuffer state_;
  DeviceBuffer selected_;
  DeviceBuffer candidates_;
  DeviceBuffer chunk_counts_;
  DeviceBuffer chunk_offsets_;
  DeviceBuffer scan_;
  cuda::Graph graph_;
  GraphKey graph_key_;
};

// The CPU's topk_select: the k entries of largest |x| (ties at the threshold
// go to the lower index), written in increasing index order; values[j] =
// x[indices[j]]. Everything runs on the device (no host synchronisation);
// outside a stream capture the launches replay as one CUDA graph.
// Throws std::invalid_argument if k > n, n > 2^32 - 1 or n > workspace.max_n().
void topk_select(const float* x, std::size_t n, std::size_t k, std::uint32_t* indices, float* values,
                 TopkWorkspace& workspace, cudaStream_t stream);

// dense[indices[j]] += values[j] for j < m, for DISTINCT indices (top-k's
// output): equal to the CPU's scatter_add then. Repeated indices race.
// Indices >= n are skipped (the CPU throws).
void scatter_add(const std::uint32_t* indices, const float* values, std::size_t m, float* dense, std::size_t n,
                 cudaStream_t stream);
// The allgathered pairs of `ranks` ranks, added in rank order so that an index
// several ranks selected sums exactly as the CPU's scatter_add over the
// concatenated blocks: block r is indices[r * stride + j], values[r * stride + j]
// for j < k, its indices distinct. One launch per block (no float atomics,
// deterministic). stride = k for two separately gathered arrays; 2k for the
// CPU backend's message layout (per rank k indices then k values, with
// values = reinterpret_cast<const float*>(indices + k)).
void scatter_add_blocks(const std::uint32_t* indices, const float* values, std::size_t k, int ranks,
                        std::size_t stride, float* dense, std::size_t n, cudaStream_t stream);

// residual = corrected with the k entries at `indices` zeroed (residual may
// be corrected itself). Indices >= n are skipped.
void residual_after_topk(const float* corrected, std::size_t n, const std::uint32_t* indices, std::size_t k,
                         float* residual, cudaStream_t stream);
// corrected[i] = x[i] + residual[i] (corrected may alias x or residual).
void add_residual(const float* x, const float* residual, std::size_t n, float* corrected, cudaStream_t stream);
// x[i] *= factor (e.g. 1/p after the allgather; the CPU's scale_by).
void scale(float* x, std::size_t n, float factor, cudaStream_t stream);

}  // namespace pico::compressed::gpu
