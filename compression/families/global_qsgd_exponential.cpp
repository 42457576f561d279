// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with exponential dithering: 8-bit sign + power-of-two codes
// relative to the global scale M. The sum of two such codes is not a code,
// so the reduction is custom and stochastic; it is applied exactly once per
// element: a direct reduce-scatter (alltoall of code blocks) brings each
// element's p codes to its owner, which decodes them, sums in fp32 and
// re-rounds the sum to a code relative to p M; the owners' codes are then
// allgathered and decoded with M (the 1/p of the mean folds into the scale).
// A user MPI_Op inside the library's reduce-scatter would re-round at every
// combining step (p-1 times per element on a ring) and compound the variance.
// Both roundings are unbiased: each error is below the gap between the two
// neighbouring levels, which is at most the value itself (or the smallest level).
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

#include "compression/families/global_qsgd_exponential.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed {
namespace {
// The owners' re-rounding draws from a stream of its own, indexed by the
// element's global position: the same numbers whichever rank owns it.
constexpr std::uint64_t kReductionStream = 1ULL << 63;
}  // namespace

GlobalQsgdExponential::GlobalQsgdExponential(const Setup& s)
    : setup_(s), block_(s.n == 0 ? 0 : (s.n + static_cast<std::size_t>(s.np) - 1) / static_cast<std::size_t>(s.np)) {
  const std::size_t padded = block_ * static_cast<std::size_t>(s.np);
  if (padded > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("a message of this case would exceed MPI's int count range");
  codes_.assign(padded, 0);
  gathered_.assign(padded, 0);
  partial_.assign(block_, 0.0f);
  owned_.assign(block_, 0);
}

template <class Mark>
void GlobalQsgdExponential::call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark) {
  const int block = static_cast<int>(block_);
  const std::size_t me = static_cast<std::size_t>(setup_.rank);
  mark("norm");
  const float local = max_abs(in);
  MPI_Allreduce(&local, &scale_, 1, MPI_FLOAT, MPI_MAX, setup_.comm);
  mark("compress");
  quantize_exponential(in, scale_, RandomStream{setup_.seed, rank_stream(setup_.rank, call)}, 0,
                       std::span(codes_).first(setup_.n));
  mark("communicate");
  MPI_Alltoall(codes_.data(), block, MPI_INT8_T, gathered_.data(), block, MPI_INT8_T, setup_.comm);
  mark("reduce");
  std::fill(partial_.begin(), partial_.end(), 0.0f);
  for (int r = 0; r < setup_.np; ++r)
    accumulate_exponential(std::span(gathered_).subspan(static_cast<std::size_t>(r) * block_, block_), scale_, partial_);
  const float sum_scale = scale_ * static_cast<float>(setup_.np);
  quantize_exponential(partial_, sum_scale, RandomStream{setup_.seed, kReductionStream | (call & 0xffffffffULL)},
                       me * block_, owned_);
  mark("communicate");
  MPI_Allgather(owned_.data(), block, MPI_INT8_T, codes_.data(), block, MPI_INT8_T, setup_.comm);
  mark("decompress");
  dequantize_exponential(std::span<const std::int8_t>(codes_).first(setup_.n), scale_, out);
}

WireVolume GlobalQsgdExponential::wire() const {
  const double blocks = static_cast<double>(block_) * (setup_.np - 1);
  return {static_cast<double>(setup_.n) + 4.0, 2.0 * blocks + 4.0};
}

nlohmann::json GlobalQsgdExponential::describe() const {
  return {{"bits", 8}, {"exponent_levels", kExponentLevels}, {"reduction", "once per element, at its owner"}};
}

// First rounding: |q_r - x_r| <= max(|x_r|, d) with d = M 2^-(L-1) the
// smallest level, so sum |q_r| <= 2 sum |x_r| + p d. The owner's rounding of
// that sum errs by at most its magnitude or p d. Hence, for the mean,
// |error| <= 3 mean|x| + 3 d (plus fp32 rounding).
std::uint64_t GlobalQsgdExponential::violations(std::span<const float> out, const ExactReference& ref) const {
  const double smallest = std::ldexp(static_cast<double>(ref.scale), -(kExponentLevels - 1));
  return count_beyond(out, ref, [&](std::size_t i) { return (3 * ref.abs_mean[i] + 3 * smallest) * (1 + 1e-5) + 1e-30; });
}

}  // namespace pico::compressed
