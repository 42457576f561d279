// SPDX-License-Identifier: BSD-3-Clause
// Random-k with a shared seed (Stich, Cordonnier, Jaggi, NeurIPS'18; Wangni
// et al., NeurIPS'18 for the unbiased 1/q scaling): the same Bernoulli(q)
// positions on every rank, so the kept values need no indices on the wire and
// add in the library's float SUM allreduce; unbiased, E[out_i] = mean_i.
#include <cfloat>
#include <stdexcept>

#include "compression/allreduce/evaluation.hpp"
#include "compression/families/randomk.hpp"

namespace pico::compressed {

RandomK::RandomK(const Setup& s)
    : setup_(s), keep_(static_cast<float>(s.param("topk_ratio", 0.01))), indices_(s.n), values_(s.n) {
  if (!(keep_ > 0.0f && keep_ <= 1.0f)) throw std::invalid_argument("random-k keeps a fraction in (0, 1]: topk_ratio");
}

RandomStream RandomK::shared_stream(std::uint64_t call) const {
  return {setup_.seed, (std::uint64_t{0xFFFFFFFFu} << 32) | (call & 0xFFFFFFFFu)};
}

template <class Mark>
void RandomK::call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark) {
  mark("compress");
  kept_ = random_subset(in, keep_, shared_stream(call), indices_, values_);
  mark("communicate");
  MPI_Allreduce(MPI_IN_PLACE, values_.data(), static_cast<int>(kept_), MPI_FLOAT, MPI_SUM, setup_.comm);
  mark("decompress");
  std::fill(out.begin(), out.end(), 0.0f);
  const float factor = 1.0f / (static_cast<float>(setup_.np) * keep_);
  for (std::size_t j = 0; j < kept_; ++j) out[indices_[j]] = values_[j] * factor;
}

// Expected bytes (q n values), so that a small vector whose draw kept nothing
// still reports what the method sends on average; describe() has the last call's count.
WireVolume RandomK::wire() const {
  const double payload = 4.0 * static_cast<double>(keep_) * static_cast<double>(setup_.n);
  return {payload, 2.0 * (setup_.np - 1) / setup_.np * payload};
}

nlohmann::json RandomK::describe() const {
  return {{"topk_ratio", keep_}, {"kept", kept_}, {"shared_seed", true}};
}

// The checked call's kept positions hold the exact mean / q up to fp32
// rounding of the sum and the scaling; every other position is exactly 0.
std::uint64_t RandomK::violations(std::span<const float> out, const ExactReference& ref) const {
  std::vector<std::uint32_t> kept(setup_.n);
  std::vector<float> unused(setup_.n);
  const std::size_t m = random_subset(out, keep_, shared_stream(kCheckedCall), kept, unused);
  std::vector<char> is_kept(setup_.n, 0);
  for (std::size_t j = 0; j < m; ++j) is_kept[kept[j]] = 1;
  const double rounding = (setup_.np + 3) * static_cast<double>(FLT_EPSILON);
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double expected = is_kept[i] ? ref.mean[i] / keep_ : 0.0;
    const double tolerance = is_kept[i] ? rounding * ref.abs_mean[i] / keep_ + 1e-30 : 0.0;
    const double err = static_cast<double>(out[i]) - expected;
    if (!(err <= tolerance && -err <= tolerance)) ++bad;
  }
  return bad;
}

}  // namespace pico::compressed
