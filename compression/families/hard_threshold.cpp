// SPDX-License-Identifier: BSD-3-Clause
// Hard-threshold sparsification with error feedback (Sahu, Dutta,
// Abdelmoniem, Banerjee, Canini, Kalnis, "Rethinking gradient sparsification
// as total error minimization", NeurIPS'21): a fixed magnitude `threshold`
// instead of a fixed k, so each rank sends its own, varying number of
// (int32 index, float) pairs. MPI_Allgather of the byte counts, then
// MPI_Allgatherv of the pairs: (p-1)/p * 8 * (all ranks' pairs) sent per rank
// on a ring, plus log2(p) alpha for the counts; merge in rank order, 1/p.
#include <climits>
#include <stdexcept>

#include "compression/families/hard_threshold.hpp"

namespace pico::compressed {

Threshold::Threshold(const Setup& s)
    : ReplayedMean(s.np),
      setup_(s),
      threshold_(static_cast<float>(s.param("threshold", 2.5))),
      error_feedback_(s.param("error_feedback", 1) != 0),
      residual_(error_feedback_ ? s.n : 0, 0.0f),
      indices_(s.n),
      values_(s.n),
      counts_(static_cast<std::size_t>(s.np)),
      displs_(static_cast<std::size_t>(s.np)),
      lists_(static_cast<std::size_t>(s.np)),
      cursors_(static_cast<std::size_t>(s.np)) {
  if (!(threshold_ > 0.0f)) throw std::invalid_argument("hard threshold: threshold must be positive");
  const std::size_t worst = 8 * s.n * static_cast<std::size_t>(s.np);
  if (worst > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("every rank's pairs would exceed MPI's int count range");
  // Room for the worst case (every entry sent by every rank), untouched until
  // used, so no call allocates whatever the residual lets through.
  gathered_ = std::make_unique_for_overwrite<std::byte[]>(std::max<std::size_t>(worst, 1));
}

template <class Mark>
void Threshold::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  mark("compress");
  const std::size_t k = error_feedback_ ? threshold_select_with_residual(in, residual_, threshold_, indices_, values_)
                                        : threshold_select(in, threshold_, indices_, values_);
  mark("communicate");
  int mine = static_cast<int>(8 * k);
  MPI_Allgather(&mine, 1, MPI_INT, counts_.data(), 1, MPI_INT, setup_.comm);
  int at = 0;
  for (std::size_t r = 0; r < counts_.size(); ++r) {
    displs_[r] = at;
    at += counts_[r];
  }
  // This rank's message in place: k indices, then k values.
  std::byte* own = gathered_.get() + displs_[static_cast<std::size_t>(setup_.rank)];
  std::copy_n(reinterpret_cast<const std::byte*>(indices_.data()), 4 * k, own);
  std::copy_n(reinterpret_cast<const std::byte*>(values_.data()), 4 * k, own + 4 * k);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.get(), counts_.data(), displs_.data(), MPI_BYTE,
                 setup_.comm);
  mark("decompress");
  sent_total_ = static_cast<std::uint64_t>(at) / 8;
  for (std::size_t r = 0; r < lists_.size(); ++r) {
    const std::size_t pairs = static_cast<std::size_t>(counts_[r]) / 8;
    std::byte* m = gathered_.get() + displs_[r];
    lists_[r] = {{reinterpret_cast<const std::uint32_t*>(m), pairs},
                 {reinterpret_cast<const float*>(m + 4 * pairs), pairs}};
  }
  sparse_mean(lists_, 1.0f / static_cast<float>(setup_.np), out, cursors_);
}

void Threshold::replay_rank(std::span<const float> x, std::span<float> replay) const {
  std::vector<std::uint32_t> indices(x.size());
  std::vector<float> values(x.size());
  const std::size_t k = threshold_select(x, threshold_, indices, values);
  scatter_add(std::span(indices).first(k), std::span(values).first(k), replay);
}

// Of the last call: the mean message per rank, and what a ring allgatherv
// makes each rank send on average ((p-1)/p of all messages).
WireVolume Threshold::wire() const {
  const double total = 8.0 * static_cast<double>(sent_total_);
  return {total / setup_.np, total * (setup_.np - 1) / setup_.np};
}

nlohmann::json Threshold::describe() const {
  const double elements = static_cast<double>(setup_.n) * setup_.np;
  return {{"threshold", threshold_},
          {"error_feedback", error_feedback_},
          {"sent_fraction", elements == 0 ? 0.0 : static_cast<double>(sent_total_) / elements}};
}

}  // namespace pico::compressed
