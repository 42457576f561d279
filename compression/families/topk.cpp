// SPDX-License-Identifier: BSD-3-Clause
// Top-k allreduce (TopkA, generic/topk.hpp): every rank's k largest |x| as (int32 index, float
// value) pairs, allgathered (8k bytes per rank, (p-1) 8k sent per rank on a
// ring: grows with p), scatter-added in rank order and scaled by 1/p.
// Deterministic: the result is replayed exactly by the check.
#include <climits>
#include <stdexcept>

#include "compression/families/topk.hpp"

namespace pico::compressed {
namespace {

// The selection, once its p messages of 8k bytes are known to fit MPI's int count.
TopkSelection<HostKernels>& gatherable(TopkSelection<HostKernels>& selection, int np) {
  if (8 * selection.k() * static_cast<std::size_t>(np) > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the gathered top-k pairs would exceed MPI's int count range");
  return selection;
}

}  // namespace

Topk::Topk(const Setup& s)
    : TopkFamily(s),
      algorithm_(MpiCollectives(s.comm, s.rank, s.np), HostKernels{}, gatherable(compressor_.selection(), s.np), s.n) {
}

template <class Mark>
void Topk::call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark) {
  algorithm_.call(in.data(), out.data(), call, mark);
}

WireVolume Topk::wire() const {
  const double message = 8.0 * static_cast<double>(compressor_.k());
  return {message, (setup_.np - 1) * message};
}

}  // namespace pico::compressed
