// SPDX-License-Identifier: BSD-3-Clause
// Top-k's sparse scatter and error feedback (docs/compression.md, TopkA): the
// residual keeps exactly what was not sent, so sent + residual == corrected
// bit for bit (each entry is either sent, residual 0, or kept, sent 0).
#include <algorithm>
#include <stdexcept>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

PICO_VECTOR_CLONES void add_arrays(const float* a, const float* b, std::size_t n, float* sum) {
  for (std::size_t i = 0; i < n; ++i) {
    sum[i] = a[i] + b[i];
  }
}

void require_index_in(std::uint32_t index, std::size_t size, const char* what) {
  if (index >= size) {
    throw std::out_of_range(what);
  }
}

}  // namespace

void scatter_add(std::span<const std::uint32_t> indices, std::span<const float> values, std::span<float> dense) {
  if (indices.size() != values.size()) {
    throw std::invalid_argument("scatter_add: indices and values differ in size");
  }
  for (std::size_t j = 0; j < indices.size(); ++j) {
    require_index_in(indices[j], dense.size(), "scatter_add: index beyond the dense vector");
    dense[indices[j]] += values[j];
  }
}

void merge_mean(std::span<const SparseList> lists, float factor, std::span<float> dense,
                std::span<std::size_t> cursors) {
  if (cursors.size() < lists.size()) throw std::invalid_argument("merge_mean: fewer cursors than lists");
  std::fill(dense.begin(), dense.end(), 0.0f);
  constexpr std::uint64_t kDone = ~std::uint64_t{0};
  const std::span<std::size_t> at = cursors.first(lists.size());
  std::fill(at.begin(), at.end(), std::size_t{0});
  auto head = [&](std::size_t r) -> std::uint64_t {
    return at[r] < lists[r].indices.size() ? lists[r].indices[at[r]] : kDone;
  };
  for (const SparseList& l : lists) {
    if (l.indices.size() != l.values.size()) throw std::invalid_argument("merge_mean: indices and values differ");
  }
  for (;;) {
    std::uint64_t next = kDone;
    for (std::size_t r = 0; r < lists.size(); ++r) next = std::min(next, head(r));
    if (next == kDone) return;
    require_index_in(static_cast<std::uint32_t>(next), dense.size(), "merge_mean: index beyond the dense vector");
    float sum = 0.0f;
    for (std::size_t r = 0; r < lists.size(); ++r) {
      if (head(r) != next) continue;
      sum += lists[r].values[at[r]];
      ++at[r];
      if (head(r) <= next) throw std::invalid_argument("merge_mean: indices not strictly increasing");
    }
    dense[next] = sum * factor;
  }
}

void sparse_mean(std::span<const SparseList> lists, float factor, std::span<float> dense,
                 std::span<std::size_t> cursors) {
  if (lists.size() <= kMergeRanks) {
    merge_mean(lists, factor, dense, cursors);
    return;
  }
  std::fill(dense.begin(), dense.end(), 0.0f);
  for (const SparseList& l : lists) scatter_add(l.indices, l.values, dense);
  for (float& v : dense) v *= factor;
}

void residual_after_topk(std::span<const float> corrected, std::span<const std::uint32_t> indices,
                         std::span<float> residual) {
  if (corrected.size() != residual.size()) {
    throw std::invalid_argument("residual_after_topk: corrected and residual differ in size");
  }
  in_parts(corrected.size(), [&](int, std::size_t b, std::size_t e) {
    std::copy(corrected.begin() + static_cast<std::ptrdiff_t>(b), corrected.begin() + static_cast<std::ptrdiff_t>(e),
              residual.begin() + static_cast<std::ptrdiff_t>(b));
  });
  for (const std::uint32_t i : indices) {
    require_index_in(i, residual.size(), "residual_after_topk: index beyond the vector");
    residual[i] = 0.0f;
  }
}

void add_residual(std::span<const float> x, std::span<const float> residual, std::span<float> corrected) {
  if (x.size() != residual.size() || x.size() != corrected.size()) {
    throw std::invalid_argument("add_residual: spans differ in size");
  }
  in_parts(x.size(), [&](int, std::size_t b, std::size_t e) {
    add_arrays(x.data() + b, residual.data() + b, e - b, corrected.data() + b);
  });
}

}  // namespace pico::compressed
