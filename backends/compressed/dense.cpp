// The uncompressed baseline on the same inputs: the library's float32 SUM
// allreduce, then 1/p. Its error is fp32 summation rounding only.
#include <cfloat>

#include "backends/compressed/algorithms.hpp"

namespace pico::compressed {

Dense::Dense(const Setup& s) : setup_(s), inv_np_(1.0f / static_cast<float>(s.np)) {}

template <class Mark>
void Dense::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  mark("communicate");
  MPI_Allreduce(in.data(), out.data(), static_cast<int>(in.size()), MPI_FLOAT, MPI_SUM, setup_.comm);
  mark("decompress");
  scale_by(out, inv_np_);
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
