// SPDX-License-Identifier: BSD-3-Clause
// Top-k on the GPU, the same selection as the CPU's topk.cpp, on the device
// from start to end (no host synchronisation).
//
// The CPU keeps the keys above the k-th largest magnitude T and the lowest-
// index elements equal to T. That is exactly the k largest of the composite key
//   K(i) = (|x[i]| bits, sign cleared) << 32 | (2^32 - 1 - i),
// which orders by magnitude and, among equal magnitudes, by lower index first;
// all K(i) are distinct. So one radix select finds K* = the k-th largest K,
// and the selection is the stateless predicate K(i) >= K*, which CUB's
// DeviceSelect::If compacts stably, i.e. in increasing index order.
//
// Radix select: 6 passes of 11, 10, 10 (magnitude) and 11, 11, 10 (index)
// bits. Each pass histograms, over the elements whose K matches the digits
// chosen so far, the next digit (shared-memory histogram per CTA, summed in
// global memory), then one CTA picks the digit holding the k-th largest. A
// pass whose chosen bucket is taken whole (its count equals the rank still
// wanted) ends the search: K* = that bucket's smallest key. With distinct
// magnitudes at the threshold (the usual case) the index passes are skipped
// this way and cost two empty launches each.
#include <cub/block/block_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>

#include <stdexcept>

#include "collectives/compressed/gpu/gpu_kernels.hpp"
#include "collectives/compressed/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

constexpr int kMaxDigitBits = 11;
constexpr unsigned kMaxBuckets = 1u << kMaxDigitBits;

// The search's progress, in the workspace (device memory).
struct TopkState {
  std::uint64_t prefix;     // digits of K* chosen so far (K* >> shift of the next pass)
  std::uint64_t rank;       // K* is the rank-th largest (1-based) key with this prefix
  std::uint64_t threshold;  // K*, once done
  std::uint32_t done;
};

// Pass p looks at digit bits [low, low + bits) of keys whose bits from
// `shift` = low + bits upward equal the prefix.
struct Pass {
  int low;
  int bits;
};
// 63 key bits (bit 63 is the cleared sign): 31 magnitude bits, 32 index bits.
constexpr Pass kPasses[] = {{52, 11}, {42, 10}, {32, 10}, {21, 11}, {10, 11}, {0, 10}};
constexpr int kPassCount = sizeof(kPasses) / sizeof(kPasses[0]);

__device__ __forceinline__ std::uint64_t composite_key(float v, std::uint64_t i) {
  const std::uint64_t magnitude = __float_as_uint(v) & 0x7FFFFFFFu;
  return (magnitude << 32) | (0xFFFFFFFFu - static_cast<std::uint32_t>(i));
}

__global__ void __launch_bounds__(detail::kThreads)
    init_kernel(std::uint64_t k, TopkState* __restrict__ state, std::uint32_t* __restrict__ histogram) {
  for (unsigned b = threadIdx.x; b < kMaxBuckets; b += blockDim.x) {
    histogram[b] = 0;
  }
  if (threadIdx.x == 0) {
    *state = TopkState{0, k, 0, 0};
  }
}

// histogram[digit] += number of this pass's candidates with that digit.
// vector: x is 16-byte aligned (float4 loads).
__global__ void __launch_bounds__(detail::kThreads)
    histogram_kernel(const float* __restrict__ x, std::uint64_t n, bool vector, Pass pass,
                     const TopkState* __restrict__ state, std::uint32_t* __restrict__ histogram) {
  __shared__ std::uint32_t local[kMaxBuckets];
  if (state->done != 0) {
    return;  // the same for every thread of the grid: no barrier is left waiting
  }
  const std::uint64_t prefix = state->prefix;
  const int shift = pass.low + pass.bits;
  const unsigned buckets = 1u << pass.bits;
  for (unsigned b = threadIdx.x; b < buckets; b += blockDim.x) {
    local[b] = 0;
  }
  __syncthreads();
  auto count = [&](float v, std::uint64_t i) {
    const std::uint64_t key = composite_key(v, i);
    if ((key >> shift) == prefix) {
      atomicAdd(&local[(key >> pass.low) & (buckets - 1)], 1u);
    }
  };
  const std::uint64_t stride = detail::grid_stride();
  const std::uint64_t groups = vector ? n / 4 : 0;
  for (std::uint64_t j = detail::thread_index(); j < groups; j += stride) {
    const float4 v = reinterpret_cast<const float4*>(x)[j];
    count(v.x, 4 * j);
    count(v.y, 4 * j + 1);
    count(v.z, 4 * j + 2);
    count(v.w, 4 * j + 3);
  }
  for (std::uint64_t i = 4 * groups + detail::thread_index(); i < n; i += stride) {
    count(x[i], i);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < buckets; b += blockDim.x) {
    if (local[b] != 0) {
      atomicAdd(&histogram[b], local[b]);
    }
  }
}

// One CTA: finds the bucket holding the rank-th largest candidate, scanning
// from the top bucket down, as the CPU's find_cut; extends the prefix, and
// clears the histogram for the next pass. Thread t owns the kPerThread
// buckets below top - t * kPerThread.
template <int Bits>
__global__ void __launch_bounds__(detail::kThreads)
    choose_digit_kernel(Pass pass, TopkState* __restrict__ state, std::uint32_t* __restrict__ histogram) {
  constexpr unsigned kBuckets = 1u << Bits;
  constexpr unsigned kPerThread = kBuckets / detail::kThreads;
  static_assert(kPerThread * detail::kThreads == kBuckets);
  using Scan = cub::BlockScan<std::uint64_t, detail::kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  if (state->done != 0) {
    return;
  }
  const std::uint64_t prefix = state->prefix;
  const std::uint64_t rank = state->rank;
  std::uint32_t counts[kPerThread];
  std::uint64_t mine = 0;
#pragma unroll
  for (unsigned j = 0; j < kPerThread; ++j) {
    const unsigned b = kBuckets - 1 - (threadIdx.x * kPerThread + j);
    counts[j] = histogram[b];
    histogram[b] = 0;
    mine += counts[j];
  }
  std::uint64_t above = 0;  // candidates in the buckets above this thread's
  Scan(scan_storage).ExclusiveSum(mine, above);
  __syncthreads();  // every thread has read *state before one of them rewrites it
  // Exactly one bucket has above < rank <= above + count (1 <= rank <= candidates).
#pragma unroll
  for (unsigned j = 0; j < kPerThread; ++j) {
    if (above < rank && above + counts[j] >= rank) {
      const unsigned b = kBuckets - 1 - (threadIdx.x * kPerThread + j);
      const std::uint64_t next_prefix = (prefix << Bits) | b;
      const std::uint64_t next_rank = rank - above;
      state->prefix = next_prefix;
      state->rank = next_rank;
      if (pass.low == 0 || counts[j] == next_rank) {
        // The bucket is taken whole (on the last pass it holds one key):
        // K* is its smallest key.
        state->threshold = next_prefix << pass.low;
        state->done = 1;
      }
    }
    above += counts[j];
  }
}

// The compaction's predicate: K(i) >= K*.
struct AtOrAboveThreshold {
  const float* x;
  const TopkState* state;
  __device__ bool operator()(std::uint32_t i) const { return composite_key(x[i], i) >= state->threshold; }
};

// The compaction's output: selected element number `slot` (in index order)
// is index i. Slots past k cannot occur (exactly k keys are >= K*); the guard
// keeps a broken invariant from writing past the caller's arrays.
struct StorePair {
  const float* x;
  std::uint32_t* indices;
  float* values;
  std::int64_t k;
  __device__ void operator()(std::int64_t slot, std::uint32_t i) const {
    if (slot >= 0 && slot < k) {
      indices[slot] = i;
      values[slot] = x[i];
    }
  }
};

using IndexIterator = thrust::counting_iterator<std::uint32_t>;
using PairIterator = thrust::tabulate_output_iterator<StorePair, thrust::use_default, std::int64_t>;

// CUB's storage for compacting n elements (no launch when temp is null).
std::size_t compaction_storage_bytes(std::size_t n) {
  std::size_t bytes = 0;
  check_cuda(cub::DeviceSelect::If(nullptr, bytes, IndexIterator(0), PairIterator(StorePair{}),
                                   static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t>(n),
                                   AtOrAboveThreshold{}, cudaStream_t{}),
             "topk_select: cub::DeviceSelect::If size query");
  return bytes;
}

__global__ void __launch_bounds__(detail::kThreads)
    take_all_kernel(const float* __restrict__ x, std::uint64_t n, std::uint32_t* __restrict__ indices,
                    float* __restrict__ values) {
  for (std::uint64_t i = detail::thread_index(); i < n; i += detail::grid_stride()) {
    indices[i] = static_cast<std::uint32_t>(i);
    values[i] = x[i];
  }
}

}  // namespace

TopkWorkspace::TopkWorkspace(std::size_t max_n)
    : max_n_(max_n),
      histogram_(kMaxBuckets * sizeof(std::uint32_t)),
      state_(sizeof(TopkState)),
      selected_(sizeof(std::int64_t)),
      compaction_(std::max<std::size_t>(compaction_storage_bytes(max_n), 1)) {}

void topk_select(const float* x, std::size_t n, std::size_t k, std::uint32_t* indices, float* values,
                 TopkWorkspace& workspace, cudaStream_t stream) {
  if (k > n) {
    throw std::invalid_argument("gpu::topk_select: k exceeds the input");
  }
  if (n > std::size_t{0xFFFFFFFFu}) {
    throw std::invalid_argument("gpu::topk_select: indices are 32-bit");
  }
  if (n > workspace.max_n()) {
    throw std::invalid_argument("gpu::topk_select: n exceeds the workspace's max_n");
  }
  if (k == 0) {
    return;
  }
  if (k == n) {
    take_all_kernel<<<detail::grid_for(n), detail::kThreads, 0, stream>>>(x, n, indices, values);
    detail::check_launch("topk_select: take_all");
    return;
  }
  auto* state = static_cast<TopkState*>(workspace.state());
  std::uint32_t* histogram = workspace.histogram();
  init_kernel<<<1, detail::kThreads, 0, stream>>>(k, state, histogram);
  detail::check_launch("topk_select: init");

  const bool vector = detail::aligned_to(x, 16);
  // One wave (8 CTAs of 256 threads per SM), not several: each CTA flushes
  // its shared histogram's non-zero buckets to global memory at the end.
  const unsigned grid = detail::grid_for(vector ? (n + 3) / 4 : n, 8);
  for (const Pass& pass : kPasses) {
    histogram_kernel<<<grid, detail::kThreads, 0, stream>>>(x, n, vector, pass, state, histogram);
    detail::check_launch("topk_select: histogram");
    if (pass.bits == 11) {
      choose_digit_kernel<11><<<1, detail::kThreads, 0, stream>>>(pass, state, histogram);
    } else {
      choose_digit_kernel<10><<<1, detail::kThreads, 0, stream>>>(pass, state, histogram);
    }
    detail::check_launch("topk_select: choose digit");
  }
  static_assert(kPassCount == 6);

  std::size_t bytes = compaction_storage_bytes(n);
  if (bytes > workspace.compaction_bytes()) {
    throw std::logic_error("gpu::topk_select: CUB needs more storage than sized for max_n");
  }
  bytes = workspace.compaction_bytes();
  const PairIterator out(StorePair{x, indices, values, static_cast<std::int64_t>(k)});
  check_cuda(cub::DeviceSelect::If(workspace.compaction(), bytes, IndexIterator(0), out, workspace.selected(),
                                   static_cast<std::int64_t>(n), AtOrAboveThreshold{x, state}, stream),
             "topk_select: cub::DeviceSelect::If");
  detail::check_launch("topk_select: compaction");
}

}  // namespace pico::compressed::gpu
