// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's CompressionKernels: compression/kernels/kernels.hpp
// on host memory. Every function is an inline forward to the span kernel, so
// an algorithm written once over Kernels compiles to what calling the kernels
// directly gave.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "compression/allreduce/collective_transport.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

class HostKernels {
 public:
  template <class T>
  using Array = std::vector<T>;
  template <class T>
  static Array<T> array(std::size_t count) {
    return Array<T>(count);  // zeroed: touches the pages now, outside timing
  }

  struct MaxAbsWorkspace {};
  struct TopkWorkspace {
    TopkWorkspace(std::size_t, bool) {}
    TopkScratch scratch;  // grows on the first call of a size (the checked call, outside timing)
  };
  // Views of the p gathered messages, and the p-way merge's cursors.
  class PairsMeanWorkspace {
   public:
    PairsMeanWorkspace(const std::byte* gathered, std::size_t k, int ranks);
    std::span<const SparseList> lists() const { return lists_; }
    std::span<std::size_t> cursors() { return cursors_; }

   private:
    std::vector<SparseList> lists_;
    std::vector<std::size_t> cursors_;
  };

  void zero(float* x, std::size_t n) { std::fill(x, x + n, 0.0f); }
  void scale(float* x, std::size_t n, float factor) { scale_by({x, n}, factor); }
  void max_abs(const float* x, std::size_t n, float* result, MaxAbsWorkspace&) {
    *result = compressed::max_abs({x, n});
  }
  template <class Code>
  void quantize_standard(const float* x, std::size_t n, const float* scale, int levels, RandomStream rng,
                         std::uint64_t first_index, Code* codes) {
    compressed::quantize_standard({x, n}, *scale, levels, rng, first_index, std::span<Code>(codes, n));
  }
  // The factor rounds in float as scale / (levels * ranks), as the GPU's dequantize does.
  template <class Code>
  void dequantize(const Code* sums, std::size_t n, const float* scale, int levels, int ranks, float* out) {
    compressed::dequantize(std::span<const Code>(sums, n),
                           *scale / (static_cast<float>(levels) * static_cast<float>(ranks)), {out, n});
  }
  void topk_select(const float* x, std::size_t n, std::size_t k, std::uint32_t* indices, float* values,
                   TopkWorkspace& w) {
    compressed::topk_select({x, n}, k, {indices, k}, {values, k}, w.scratch);
  }
  // Error feedback inside the selection pass (one streaming pass): one phase, compress.
  template <class Mark>
  void topk_select_with_residual(const float* x, std::size_t n, float* residual, std::size_t k,
                                 std::uint32_t* indices, float* values, TopkWorkspace& w, Mark& mark) {
    mark("compress");
    compressed::topk_select_with_residual({x, n}, {residual, n}, k, {indices, k}, {values, k}, w.scratch);
  }
  void mean_of_pairs(const std::byte*, std::size_t, int, float factor, float* out, std::size_t n,
                     PairsMeanWorkspace& w) {
    sparse_mean(w.lists(), factor, {out, n}, w.cursors());
  }
};

inline HostKernels::PairsMeanWorkspace::PairsMeanWorkspace(const std::byte* gathered, std::size_t k, int ranks)
    : cursors_(static_cast<std::size_t>(ranks)) {
  for (int r = 0; r < ranks; ++r) {
    const std::uint32_t* indices = pair_message(gathered, k, r);
    lists_.push_back({{indices, k}, {reinterpret_cast<const float*>(indices + k), k}});
  }
}

static_assert(CompressionKernels<HostKernels>);

}  // namespace pico::compressed
