// SPDX-License-Identifier: BSD-3-Clause
// Top-k on the GPU, the same selection as the CPU's topk_select.cpp, on the device
// from start to end (no host synchronisation).
//
// The CPU keeps the keys above the k-th largest magnitude T and the lowest-
// index elements equal to T. That is exactly the k largest of the composite key
//   K(i) = (|x[i]| bits, sign cleared) << 32 | (2^32 - 1 - i),
// which orders by magnitude and, among equal magnitudes, by lower index first;
// all K(i) are distinct. So one radix select finds K* = the k-th largest K,
// and the selection is the stateless predicate K(i) >= K*, compacted in
// increasing index order.
//
// Radix select: 6 passes of 11, 10, 10 (magnitude) and 11, 11, 10 (index)
// bits. Each pass histograms, over the keys that match the digits chosen so
// far, the next digit (shared-memory histogram per CTA, summed in global
// memory), then one CTA picks the digit holding the k-th largest. A pass whose
// chosen bucket is taken whole (its count equals the rank still wanted) ends
// the search: K* = that bucket's smallest key; later passes return at once.
//
// Three reads of x in all (an H100/H200 profile of the earlier version, six
// histogram passes over x and CUB's DeviceSelect::If, found the compaction
// alone at 25% of DRAM bandwidth, its predicate's scattered loads):
//   1. the first digit's histogram over x;
//   2. split: per chunk of kChunk elements, the count of keys surely selected
//      (first digit above the chosen one), and the keys in the chosen bucket
//      appended to a candidate list (usually ~1% of x); passes 2-6 then read
//      the candidates, not x;
//   3. write: per chunk, its selected elements at its offset (an exclusive
//      scan of the per-chunk counts, completed from the candidates), in index
//      order within the chunk by block scans.
// If the chosen bucket holds more keys than the candidate list can (inputs of
// many equal magnitudes), passes 2-6 and the counts read x instead.
//
// Small inputs are launch-bound (a dozen short kernels): outside a stream
// capture, topk_select captures its launches into a CUDA graph once per
// (x, n, k, outputs, stream) and replays it.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

constexpr int kMaxDigitBits = 11;
constexpr unsigned kMaxBuckets = 1u << kMaxDigitBits;

// The search's progress, in the workspace (device memory).
struct TopkState {
  std::uint64_t prefix;      // digits of K* chosen so far (K* >> shift of the next pass)
  std::uint64_t rank;        // K* is the rank-th largest (1-based) key with this prefix
  std::uint64_t threshold;   // K*, once done
  unsigned long long candidates;  // keys the split appended (may exceed the list's capacity)
  unsigned arrived;          // CTAs of the running histogram pass that have finished
  std::uint32_t done;
  std::uint32_t overflow;    // the candidates did not fit: passes 2-6 and the counts read x
};

// Elements per chunk of the split and write passes: 256 threads x 4 float4.
constexpr unsigned kTiles = 4;
constexpr std::uint64_t kChunk = kTiles * 4 * detail::kThreads;

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
    *state = TopkState{0, k, 0, 0, 0, 0, 0};
  }
}

// f(K(i)) for every element of x, grid-stride; vector: x is 16-byte aligned (float4 loads).
template <class F>
__device__ __forceinline__ void for_each_key(const float* __restrict__ x, std::uint64_t n, bool vector, F&& f) {
  const std::uint64_t stride = detail::grid_stride();
  const std::uint64_t groups = vector ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  auto keys_of = [&](const float4& v, std::uint64_t j) {
    f(composite_key(v.x, 4 * j));
    f(composite_key(v.y, 4 * j + 1));
    f(composite_key(v.z, 4 * j + 2));
    f(composite_key(v.w, 4 * j + 3));
  };
  std::uint64_t j = detail::thread_index();
  for (; j + stride < groups; j += 2 * stride) {  // two loads in flight per thread
    const float4 a = x4[j];
    const float4 b = x4[j + stride];
    keys_of(a, j);
    keys_of(b, j + stride);
  }
  for (; j < groups; j += stride) keys_of(x4[j], j);
  for (std::uint64_t i = 4 * groups + detail::thread_index(); i < n; i += stride) {
    f(composite_key(x[i], i));
  }
}

// The histogram pass's last CTA: finds the bucket holding the rank-th largest
// key, scanning from the top bucket down, as the CPU's find_cut; extends the
// prefix, and clears the histogram for the next pass (reading each bucket
// with an atomic exchange, at L2, where the other CTAs' atomics landed).
// Thread t owns the kPerThread buckets below top - t * kPerThread.
template <int Bits>
__device__ void choose_digit(Pass pass, TopkState* __restrict__ state, std::uint32_t* __restrict__ histogram) {
  constexpr unsigned kBuckets = 1u << Bits;
  constexpr unsigned kPerThread = kBuckets / detail::kThreads;
  static_assert(kPerThread * detail::kThreads == kBuckets);
  using Scan = cub::BlockScan<std::uint64_t, detail::kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  const std::uint64_t prefix = state->prefix;
  const std::uint64_t rank = state->rank;
  std::uint32_t counts[kPerThread];
  std::uint64_t mine = 0;
#pragma unroll
  for (unsigned j = 0; j < kPerThread; ++j) {
    const unsigned b = kBuckets - 1 - (threadIdx.x * kPerThread + j);
    counts[j] = atomicExch(&histogram[b], 0u);
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

// histogram[digit] += number of this pass's keys (those matching the prefix)
// with that digit, over x (pass 1, or every pass after an overflow) or over
// the candidate list; the CTA that finishes last then chooses the digit (one
// launch per pass: small inputs are launch-bound).
__global__ void __launch_bounds__(detail::kThreads)
    histogram_kernel(const float* __restrict__ x, std::uint64_t n, bool vector,
                     const std::uint64_t* __restrict__ candidates, std::uint64_t capacity, Pass pass,
                     bool first_pass, TopkState* __restrict__ state, std::uint32_t* __restrict__ histogram) {
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
  auto count = [&](std::uint64_t key) {
    if ((key >> shift) == prefix) {
      atomicAdd(&local[(key >> pass.low) & (buckets - 1)], 1u);
    }
  };
  if (first_pass || state->overflow != 0) {
    for_each_key(x, n, vector, count);
  } else {
    const std::uint64_t listed = min(static_cast<std::uint64_t>(state->candidates), capacity);
    for (std::uint64_t j = detail::thread_index(); j < listed; j += detail::grid_stride()) {
      count(candidates[j]);
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < buckets; b += blockDim.x) {
    if (local[b] != 0) {
      atomicAdd(&histogram[b], local[b]);
    }
  }
  // The last CTA to arrive sees every CTA's additions (each fenced them
  // before arriving: CUDA's threadFenceReduction pattern).
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    last = atomicAdd(&state->arrived, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) {
    return;
  }
  __threadfence();
  if (pass.bits == 11) {
    choose_digit<11>(pass, state, histogram);
  } else {
    choose_digit<10>(pass, state, histogram);
  }
  if (threadIdx.x == 0) {
    state->arrived = 0;
  }
}

// The elements thread t holds of chunk c: in tile u, positions
// c kChunk + u 1024 + 4t .. +3 (a float4 when x is aligned; past n: 0, no key).
// Floats only, indices recomputed (position()): the kernels' registers bound
// their occupancy, and with it the bytes in flight.
using ChunkValues = float[kTiles][4];

__device__ __forceinline__ std::uint64_t position(std::uint64_t chunk, unsigned u, int e) {
  return chunk * kChunk + u * 4 * detail::kThreads + 4 * threadIdx.x + static_cast<unsigned>(e);
}

__device__ __forceinline__ void load_chunk(const float* __restrict__ x, std::uint64_t n, bool vector,
                                           std::uint64_t chunk, ChunkValues& v) {
#pragma unroll
  for (unsigned u = 0; u < kTiles; ++u) {
    const std::uint64_t first = position(chunk, u, 0);
    if (vector && first + 4 <= n) {
      const float4 f = reinterpret_cast<const float4*>(x)[first / 4];
      v[u][0] = f.x, v[u][1] = f.y, v[u][2] = f.z, v[u][3] = f.w;
    } else {
      for (int e = 0; e < 4; ++e) v[u][e] = first + e < n ? x[first + e] : 0.0f;
    }
  }
}

// f(K(i)) for the elements i of chunk c that lie in x, in index order within each thread.
template <class F>
__device__ __forceinline__ void for_each_chunk_key(std::uint64_t c, std::uint64_t n, const ChunkValues& v, F&& f) {
#pragma unroll
  for (unsigned u = 0; u < kTiles; ++u) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const std::uint64_t i = position(c, u, e);
      if (i < n) f(composite_key(v[u][e], i));
    }
  }
}

// Split (pass 2's read of x): counts[c] = keys of chunk c surely selected;
// keys in the chosen first-digit bucket appended to `candidates` (capacity
// entries; more set overflow), one atomic per chunk for the list's cursor (a
// cursor taken per warp step serialised a million same-address atomics at
// 1 GiB). After a first pass that ended the search, the count is simply
// K(i) >= K*.
__global__ void __launch_bounds__(detail::kThreads, 4)
    split_kernel(const float* __restrict__ x, std::uint64_t n, bool vector, std::uint64_t chunks,
                 TopkState* __restrict__ state, std::uint64_t* __restrict__ candidates, std::uint64_t capacity,
                 std::uint32_t* __restrict__ counts) {
  using Scan = cub::BlockScan<std::uint32_t, detail::kThreads>;
  using Reduce = cub::BlockReduce<std::uint32_t, detail::kThreads>;
  __shared__ union {
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
  } storage;
  __shared__ unsigned long long base;
  const bool done = state->done != 0;
  const std::uint64_t prefix = state->prefix;
  const std::uint64_t threshold = state->threshold;
  for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    ChunkValues v;
    load_chunk(x, n, vector, c, v);
    std::uint32_t sure = 0;
    std::uint32_t listed = 0;  // this thread's candidates
    for_each_chunk_key(c, n, v, [&](std::uint64_t key) {
      sure += done ? key >= threshold : (key >> 52) > prefix;
      listed += !done && (key >> 52) == prefix;
    });
    std::uint32_t before = 0, chunk_listed = 0;
    Scan(storage.scan).ExclusiveSum(listed, before, chunk_listed);
    if (threadIdx.x == 0 && chunk_listed != 0) base = atomicAdd(&state->candidates, chunk_listed);
    __syncthreads();
    if (listed != 0) {
      std::uint64_t slot = base + before;
      for_each_chunk_key(c, n, v, [&](std::uint64_t key) {
        if ((key >> 52) == prefix) {
          if (slot < capacity) candidates[slot] = key;
          else state->overflow = 1;
          ++slot;
        }
      });
    }
    const std::uint32_t total = Reduce(storage.reduce).Sum(sure);
    if (threadIdx.x == 0) counts[c] = total;
    __syncthreads();  // storage and base are reused by the next chunk
  }
}

// Completes counts[c] to the number of K(i) >= K* in chunk c: the listed
// candidates at or above K* added to their chunks; after an overflow,
// counted again from x.
__global__ void __launch_bounds__(detail::kThreads, 4)
    finish_counts_kernel(const float* __restrict__ x, std::uint64_t n, bool vector, std::uint64_t chunks,
                         const std::uint64_t* __restrict__ candidates, std::uint64_t capacity,
                         const TopkState* __restrict__ state, std::uint32_t* __restrict__ counts) {
  const std::uint64_t threshold = state->threshold;
  if (state->overflow == 0) {
    const std::uint64_t listed = min(static_cast<std::uint64_t>(state->candidates), capacity);
    for (std::uint64_t j = detail::thread_index(); j < listed; j += detail::grid_stride()) {
      const std::uint64_t key = candidates[j];
      if (key >= threshold) {
        const std::uint64_t i = 0xFFFFFFFFu - static_cast<std::uint32_t>(key);
        atomicAdd(&counts[i / kChunk], 1u);
      }
    }
    return;
  }
  using Reduce = cub::BlockReduce<std::uint32_t, detail::kThreads>;
  __shared__ typename Reduce::TempStorage reduce_storage;
  for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    ChunkValues v;
    load_chunk(x, n, vector, c, v);
    std::uint32_t mine = 0;
    for_each_chunk_key(c, n, v, [&](std::uint64_t key) { mine += key >= threshold; });
    const std::uint32_t total = Reduce(reduce_storage).Sum(mine);
    if (threadIdx.x == 0) counts[c] = total;
    __syncthreads();
  }
}

// Write (the last read of x): chunk c's selected elements, in index order,
// from offsets[c] on. The last chunk also records the total selected.
__global__ void __launch_bounds__(detail::kThreads, 4)
    write_kernel(const float* __restrict__ x, std::uint64_t n, bool vector, std::uint64_t chunks,
                 const TopkState* __restrict__ state, const std::uint32_t* __restrict__ offsets, std::uint64_t k,
                 std::uint32_t* __restrict__ indices, float* __restrict__ values, std::int64_t* __restrict__ selected) {
  using Scan = cub::BlockScan<std::uint32_t, detail::kThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  const std::uint64_t threshold = state->threshold;
  for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    ChunkValues v;
    load_chunk(x, n, vector, c, v);
    std::uint64_t running = offsets[c];
#pragma unroll
    for (unsigned u = 0; u < kTiles; ++u) {
      bool take[4];
      std::uint32_t mine = 0;
      for (int e = 0; e < 4; ++e) {
        take[e] = position(c, u, e) < n && composite_key(v[u][e], position(c, u, e)) >= threshold;
        mine += take[e];
      }
      std::uint32_t before = 0, tile_total = 0;
      Scan(scan_storage).ExclusiveSum(mine, before, tile_total);
      std::uint64_t slot = running + before;
      for (int e = 0; e < 4; ++e) {
        if (take[e]) {
          if (slot < k) {  // exactly k keys are >= K*; the guard keeps a broken invariant inside the arrays
            indices[slot] = static_cast<std::uint32_t>(position(c, u, e));
            values[slot] = v[u][e];
          }
          ++slot;
        }
      }
      running += tile_total;
      __syncthreads();  // scan_storage is reused by the next tile
    }
    if (c == chunks - 1 && threadIdx.x == 0) *selected = static_cast<std::int64_t>(running);
  }
}

__global__ void __launch_bounds__(detail::kThreads)
    take_all_kernel(const float* __restrict__ x, std::uint64_t n, std::uint32_t* __restrict__ indices,
                    float* __restrict__ values) {
  for (std::uint64_t i = detail::thread_index(); i < n; i += detail::grid_stride()) {
    indices[i] = static_cast<std::uint32_t>(i);
    values[i] = x[i];
  }
}

std::uint64_t chunks_of(std::size_t n) { return (n + kChunk - 1) / kChunk; }
// Keys the candidate list holds: an eighth of x (the chosen bucket of normal
// or heavy-tailed data holds about 1%; of data within one binade, an eighth).
std::uint64_t capacity_for(std::size_t max_n) { return std::max<std::uint64_t>(4096, max_n / 8 + 1); }

// CUB's storage for the exclusive scan of `chunks` counts (no launch when temp is null).
std::size_t scan_storage_bytes(std::uint64_t chunks) {
  std::size_t bytes = 0;
  check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                           static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(chunks),
                                           cudaStream_t{}),
             "topk_select: cub::DeviceScan::ExclusiveSum size query");
  return bytes;
}

// The launches of one selection (1 < k < n), all on `stream`.
void enqueue_select(const float* x, std::size_t n, std::size_t k, std::uint32_t* indices, float* values,
                    TopkWorkspace& w, cudaStream_t stream) {
  auto* state = static_cast<TopkState*>(w.state());
  std::uint32_t* histogram = w.histogram();
  const std::uint64_t chunks = chunks_of(n);
  init_kernel<<<1, detail::kThreads, 0, stream>>>(k, state, histogram);
  detail::check_launch("topk_select: init");

  const bool vector = detail::aligned_to(x, 16);
  // One wave (8 CTAs of 256 threads per SM), not several: each CTA flushes
  // its shared histogram's non-zero buckets to global memory at the end.
  const unsigned grid = detail::grid_for(vector ? (n + 3) / 4 : n, 8);
  const unsigned chunk_grid = detail::grid_for(chunks * detail::kThreads, 8);
  for (int p = 0; p < kPassCount; ++p) {
    const Pass pass = kPasses[p];
    histogram_kernel<<<grid, detail::kThreads, 0, stream>>>(x, n, vector, w.candidates(), w.candidate_capacity(),
                                                            pass, p == 0, state, histogram);
    detail::check_launch("topk_select: histogram");
    if (p == 0) {
      split_kernel<<<chunk_grid, detail::kThreads, 0, stream>>>(x, n, vector, chunks, state, w.candidates(),
                                                                w.candidate_capacity(), w.chunk_counts());
      detail::check_launch("topk_select: split");
    }
  }
  static_assert(kPassCount == 6);
  finish_counts_kernel<<<chunk_grid, detail::kThreads, 0, stream>>>(x, n, vector, chunks, w.candidates(),
                                                                    w.candidate_capacity(), state, w.chunk_counts());
  detail::check_launch("topk_select: finish counts");
  std::size_t bytes = w.scan_bytes();
  check_cuda(cub::DeviceScan::ExclusiveSum(w.scan_storage(), bytes, w.chunk_counts(), w.chunk_offsets(),
                                           static_cast<std::int64_t>(chunks), stream),
             "topk_select: cub::DeviceScan::ExclusiveSum");
  write_kernel<<<chunk_grid, detail::kThreads, 0, stream>>>(x, n, vector, chunks, state, w.chunk_offsets(), k,
                                                            indices, values, w.selected());
  detail::check_launch("topk_select: write");
}

}  // namespace

TopkWorkspace::TopkWorkspace(std::size_t max_n)
    : max_n_(max_n),
      histogram_(kMaxBuckets * sizeof(std::uint32_t)),
      state_(sizeof(TopkState)),
      selected_(sizeof(std::int64_t)),
      candidates_(capacity_for(max_n) * sizeof(std::uint64_t)),
      chunk_counts_(std::max<std::uint64_t>(chunks_of(max_n), 1) * sizeof(std::uint32_t)),
      chunk_offsets_(std::max<std::uint64_t>(chunks_of(max_n), 1) * sizeof(std::uint32_t)),
      scan_(std::max<std::size_t>(scan_storage_bytes(std::max<std::uint64_t>(chunks_of(max_n), 1)), 1)) {}

std::uint64_t TopkWorkspace::candidate_capacity() const { return capacity_for(max_n_); }

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
  if (scan_storage_bytes(chunks_of(n)) > workspace.scan_bytes()) {
    throw std::logic_error("gpu::topk_select: CUB needs more storage than sized for max_n");
  }
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  check_cuda(cudaStreamIsCapturing(stream, &capturing), "topk_select: cudaStreamIsCapturing");
  // In the caller's capture its graph holds the launches; the legacy default
  // stream cannot be captured.
  if (capturing != cudaStreamCaptureStatusNone || stream == nullptr) {
    enqueue_select(x, n, k, indices, values, workspace, stream);
    return;
  }
  const TopkWorkspace::GraphKey key{x, n, k, indices, values, stream};
  if (!workspace.graph().captured() || !(workspace.graph_key() == key)) {
    check_cuda(workspace.graph().capture(stream, [&] { enqueue_select(x, n, k, indices, values, workspace, stream); }),
               "topk_select: capturing its launches");
    workspace.set_graph_key(key);
  }
  check_cuda(workspace.graph().replay(stream), "topk_select: cudaGraphLaunch");
}

}  // namespace pico::compressed::gpu
