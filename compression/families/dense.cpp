// SPDX-License-Identifier: BSD-3-Clause
// The uncompressed baseline on the same inputs (generic/dense.hpp): the
// library's float32 SUM allreduce, then 1/p. Its error is fp32 summation rounding only.
#include <cfloat>

#include "compression/families/dense.hpp"

namespace pico::compressed {

Dense::Dense(const Setup& s) : setup_(s), algorithm_(MpiCollectives(s.comm, s.rank, s.np), HostKernels{}, s.n) {}

template <class Mark>
void Dense::call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark) {
  algorithm_.call(in.data(), out.data(), call, mark);
}

WireVolume Dense::wire() const {
  const double bytes = 4.0 * static_cast<double>(setup_.n);
  return {bytes, 2.0 * (setup_.np - 1) / setup_.np * bytes};
}

// p fp32 additions in any order, then a scaling: a few ulps of sum |x|.
std::uint64_t Dense::violations(std::span<const float> out, const ExactReference& ref) const {
  const double rounding = (setup_.np + 2) * static_cast<double>(FLT_EPSILON);
  return count_beyond(out, ref, [&](std::size_t i) { return rounding * ref.abs_mean[i] + 1e-30; });
}

}  // namespace pico::compressed
