// Top-k allreduce (TopkA): every rank's k largest |x| as (int32 index, float
// value) pairs, allgathered (8k bytes per rank, (p-1) 8k sent per rank on a
// ring: grows with p), scatter-added in rank order and scaled by 1/p.
// Deterministic: the result is replayed exactly by the check.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include "backends/compressed/algorithms.hpp"

namespace pico::compressed {
namespace {

// A rank's message: k indices, then k values.
std::span<std::uint32_t> indices_of(std::byte* message, std::size_t k) {
  return {reinterpret_cast<std::uint32_t*>(message), k};
}
std::span<float> values_of(std::byte* message, std::size_t k) {
  return {reinterpret_cast<float*>(message + k * sizeof(std::uint32_t)), k};
}

// Up to this many ranks the p-way merge (O(p) per index) beats zeroing,
// scattering and scaling the whole vector.
constexpr int kMergeRanks = 16;

}  // namespace

Topk::Topk(const Setup& s) : TopkFamily(s) {
  const std::size_t message = compressor_.k() * 8;
  if (message * static_cast<std::size_t>(s.np) > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the gathered top-k pairs would exceed MPI's int count range");
  gathered_.resize(message * static_cast<std::size_t>(s.np));
  for (int r = 0; r < s.np; ++r) {
    std::byte* m = gathered_.data() + message * static_cast<std::size_t>(r);
    lists_.push_back({indices_of(m, compressor_.k()), values_of(m, compressor_.k())});
  }
  cursors_.resize(lists_.size());
}

template <class Mark>
void Topk::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  const std::size_t k = compressor_.k();
  std::byte* mine = gathered_.data() + k * 8 * static_cast<std::size_t>(setup_.rank);
  compressor_.compress(in, indices_of(mine, k), values_of(mine, k), mark);
  mark("communicate");
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.data(), static_cast<int>(k * 8), MPI_BYTE, setup_.comm);
  mark("decompress");
  const float inv_np = 1.0f / static_cast<float>(setup_.np);
  if (setup_.np <= kMergeRanks) {
    merge_mean(lists_, inv_np, out, cursors_);  // the same bits, without a pass over the whole vector
    return;
  }
  std::fill(out.begin(), out.end(), 0.0f);
  for (const SparseList& l : lists_) scatter_add(l.indices, l.values, out);
  scale_by(out, inv_np);
}

WireVolume Topk::wire() const {
  const double message = 8.0 * static_cast<double>(compressor_.k());
  return {message, (setup_.np - 1) * message};
}

}  // namespace pico::compressed
