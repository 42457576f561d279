// SPDX-License-Identifier: BSD-3-Clause
// What a compressed allreduce algorithm needs of the machine, in two
// policies, so that each algorithm is written once (compression/allreduce/generic/)
// and runs on host buffers with MPI or on device buffers with NCCL:
//
// - a CollectiveTransport: the few collectives the algorithms use, on the
//   buffers of its side (MpiCollectives: host memory, blocking MPI calls;
//   compressed::gpu::NcclCollectives: device memory, enqueued on the session's stream);
// - CompressionKernels: the per-element operations and the buffers they work
//   on (HostKernels: compression/kernels/kernels.hpp on std::vector;
//   compressed::gpu::DeviceKernels: compression/kernels/gpu/ on device arrays).
//
// Both are concrete types chosen at compile time: an algorithm is a class
// template over <Transport, Kernels> and its call a template over the phase
// mark, so the timed path has no virtual call and, with every buffer made in
// the constructor, no allocation. Scalars that feed a kernel (the QSGD
// scale) live in a one-element Kernels::Array so that on the device they
// never come back to the host.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

// The collectives, all over every rank of the transport's communicator.
// Pointers are to the transport's side (host or device) and every rank passes
// the same counts. allgather is in place: rank r's `bytes` already sit at
// offset r * bytes of `gathered`.
template <class T>
concept CollectiveTransport = requires(T t, const T ct, const float* in, float* out, std::int8_t* codes,
                                       std::byte* gathered, std::size_t n) {
  { ct.rank() } -> std::same_as<int>;
  { ct.size() } -> std::same_as<int>;
  t.allreduce_sum(in, out, n);  // out = float32 SUM of every rank's in
  t.allreduce_sum(codes, n);    // in place, integer SUM (int8 codes; MPI also takes int16)
  t.allreduce_max(out);         // one float, in place
  t.allgather(gathered, n);     // n bytes per rank, in place
};

// The pairs' layout in a gathered buffer (what mean_of_pairs reads): rank
// r's message at byte 8 k r, its k uint32 indices then its k float values.
template <class Byte>
auto* pair_message(Byte* gathered, std::size_t k, int rank) {
  using Word = std::conditional_t<std::is_const_v<Byte>, const std::uint32_t, std::uint32_t>;
  return reinterpret_cast<Word*>(gathered + 8 * k * static_cast<std::size_t>(rank));
}

// A phase mark that records nothing: what the concept checks the marked kernels with.
struct UnmarkedPhases {
  void operator()(const char*) const {}
};

// The kernels. Buffers: Array<T> (data(), size()) made by array<T>(count)
// (zeroed on the host, uninitialised on the device); workspaces made once
// per algorithm: MaxAbsWorkspace{}, TopkWorkspace(n, error_feedback),
// PairsMeanWorkspace(gathered, k, ranks). Results equal the CPU kernels' bit
// for bit (the GPU kernels are written to: gpu_kernels.hpp).
template <class K>
concept CompressionKernels =
    requires(K k, const float* in, float* out, float* scale, const float* cscale, std::int8_t* codes,
             std::uint32_t* indices, const std::byte* gathered, std::size_t n, float factor, int levels,
             RandomStream rng, typename K::MaxAbsWorkspace& max_abs_ws, typename K::TopkWorkspace& topk_ws,
             typename K::PairsMeanWorkspace& mean_ws, UnmarkedPhases& mark) {
      { K::template array<float>(n) } -> std::same_as<typename K::template Array<float>>;
      k.zero(out, n);
      k.scale(out, n, factor);                                     // out *= factor
      k.max_abs(in, n, scale, max_abs_ws);                         // *scale = max |in|
      k.quantize_standard(in, n, cscale, levels, rng, n, codes);   // codes of in at *cscale
      k.dequantize(codes, n, cscale, levels, levels, out);         // out = codes * *cscale / (levels ranks)
      k.topk_select(in, n, n, indices, out, topk_ws);              // the k largest |in|, by index
      k.topk_select_with_residual(in, n, out, n, indices, out, topk_ws, mark);  // marks its own phases
      k.mean_of_pairs(gathered, n, levels, factor, out, n, mean_ws);  // ranks' (k indices, k values) added, * factor
    };

}  // namespace pico::compressed
