// SPDX-License-Identifier: BSD-3-Clause
// Adaptive Top-k (adaptive_topk.hpp): Topk's allgather of (index, value) pairs
// with k chosen per call from the measured bandwidth and a time target.
// Cost per call: (p-1)(8 + 8k) beta + log2(p) alpha + n kappa, with k the
// largest whose (p-1)(8 + 8k) bytes take time_target at the estimated
// bandwidth, clamped to [min_ratio n, max_ratio n].
#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "compression/allreduce/topk_compressor.hpp"  // topk_error_feedback, topk_ratio
#include "compression/families/adaptive_topk.hpp"

namespace pico::compressed {
namespace {

// Calls whose ratio describe() reports (the rest are counted).
constexpr std::size_t kLoggedRatios = std::size_t{1} << 16;
// describe() lists the ratios of this many first calls, to show the adaptation.
constexpr std::size_t kListedRatios = 16;

double wall_seconds() { return MPI_Wtime(); }

RatioRule rule_of(const Setup& s) {
  RatioRule r;
  r.time_target_s = s.param("time_target", r.time_target_s);
  r.min_ratio = s.param("min_ratio", r.min_ratio);
  r.max_ratio = s.param("max_ratio", r.max_ratio);
  if (!(r.time_target_s > 0)) throw std::invalid_argument("adaptive_topk: time_target must be positive");
  if (!(r.min_ratio > 0 && r.min_ratio <= r.max_ratio && r.max_ratio <= 1))
    throw std::invalid_argument(
        fmt::format("adaptive_topk: needs 0 < min_ratio <= max_ratio <= 1, got min_ratio {} and max_ratio {}",
                    r.min_ratio, r.max_ratio));
  return r;
}

}  // namespace

AdaptiveTopk::AdaptiveTopk(const Setup& s, Clock clock)
    : ReplayedMean(s.np),
      setup_(s),
      rule_(rule_of(s)),
      start_ratio_(std::clamp(s.param("topk_ratio", 0.01), rule_.min_ratio, rule_.max_ratio)),
      error_feedback_(topk_error_feedback(s)),
      clock_(clock ? std::move(clock) : Clock(wall_seconds)),
      // Each rank receives the other p - 1 messages.
      wire_model_{8.0 * (s.np - 1), 8.0 * (s.np - 1)},
      lists_(static_cast<std::size_t>(s.np)),
      cursors_(static_cast<std::size_t>(s.np)) {
  const std::size_t largest = message_bytes(elements_for_ratio(rule_.max_ratio, s.n));
  if (largest * static_cast<std::size_t>(s.np) > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the gathered top-k pairs would exceed MPI's int count range");
  gathered_.resize(largest * static_cast<std::size_t>(s.np));
  if (error_feedback_) residual_.assign(s.n, 0.0f);
  ratios_.reserve(kLoggedRatios);
  k_ = elements_for_ratio(start_ratio_, s.n);
  // k changes per call: the selection's scratch for the largest, so that no call allocates.
  topk_reserve(s.n, elements_for_ratio(rule_.max_ratio, s.n), scratch_);
}

std::size_t AdaptiveTopk::choose_k() const {
  const auto bandwidth = bandwidth_.bytes_per_second();
  const double ratio = bandwidth ? choose_ratio(rule_, *bandwidth, wire_model_, setup_.n) : start_ratio_;
  return elements_for_ratio(ratio, setup_.n);
}

template <class Mark>
void AdaptiveTopk::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  k_ = choose_k();
  const std::size_t k = k_;
  const std::size_t message = message_bytes(k);
  const auto p = static_cast<std::size_t>(setup_.np);
  for (std::size_t r = 0; r < p; ++r) {
    std::byte* m = gathered_.data() + message * r + 8;
    lists_[r] = {{reinterpret_cast<const std::uint32_t*>(m), k}, {reinterpret_cast<const float*>(m + 4 * k), k}};
  }
  std::byte* mine = gathered_.data() + message * static_cast<std::size_t>(setup_.rank);
  std::memcpy(mine, &previous_seconds_, sizeof(double));
  const std::span<std::uint32_t> indices(reinterpret_cast<std::uint32_t*>(mine + 8), k);
  const std::span<float> values(reinterpret_cast<float*>(mine + 8 + 4 * k), k);
  mark("compress");
  if (error_feedback_)
    topk_select_with_residual(in, residual_, k, indices, values, scratch_);
  else
    topk_select(in, k, indices, values, scratch_);

  mark("communicate");
  const double start = clock_();
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.data(), static_cast<int>(message), MPI_BYTE,
                setup_.comm);
  const double seconds = clock_() - start;
  // Every rank holds the same p times of the previous call: the same update
  // everywhere. The shortest is the rank that waited least for the others,
  // whose interval is closest to the transfer alone.
  double fastest = 0;
  for (std::size_t r = 0; r < p; ++r) {
    double t = 0;
    std::memcpy(&t, gathered_.data() + message * r, sizeof(double));
    fastest = r == 0 ? t : std::min(fastest, t);
  }
  bandwidth_.observe(previous_wire_bytes_, fastest);
  previous_seconds_ = seconds;
  previous_wire_bytes_ = wire().wire_bytes;
  if (logging_) {
    if (ratios_.size() < kLoggedRatios)
      ratios_.push_back(setup_.n == 0 ? 0.0f : static_cast<float>(static_cast<double>(k) / static_cast<double>(setup_.n)));
    ++logged_calls_;
  }

  mark("decompress");
  sparse_mean(lists_, 1.0f / static_cast<float>(setup_.np), out, cursors_);
}

void AdaptiveTopk::reset() {
  std::fill(residual_.begin(), residual_.end(), 0.0f);
  logging_ = false;  // the calls that follow are the check's, not the measured ones
}

WireVolume AdaptiveTopk::wire() const {
  const double bytes = static_cast<double>(message_bytes(k_));
  return {bytes, (setup_.np - 1) * bytes};
}

void AdaptiveTopk::replay_rank(std::span<const float> x, std::span<float> replay) const {
  std::vector<std::uint32_t> indices(k_);
  std::vector<float> values(k_);
  topk_select(x, k_, indices, values, replay_scratch_);
  scatter_add(indices, values, replay);
}

nlohmann::json AdaptiveTopk::describe() const {
  const double n = static_cast<double>(setup_.n);
  nlohmann::json per_call = {{"calls", logged_calls_}};
  if (!ratios_.empty()) {
    std::vector<float> sorted = ratios_;
    std::sort(sorted.begin(), sorted.end());
    per_call["first"] = std::vector<float>(ratios_.begin(), ratios_.begin() + static_cast<std::ptrdiff_t>(
                                                                                   std::min(kListedRatios, ratios_.size())));
    per_call["min"] = sorted.front();
    per_call["median"] = sorted[sorted.size() / 2];
    per_call["max"] = sorted.back();
    per_call["last"] = ratios_.back();
  }
  const auto bandwidth = bandwidth_.bytes_per_second();
  return {
      {"time_target_s", rule_.time_target_s},
      {"min_ratio", rule_.min_ratio},
      {"max_ratio", rule_.max_ratio},
      {"start_ratio", start_ratio_},
      {"error_feedback", error_feedback_},
      {"bandwidth_Bps", bandwidth ? nlohmann::json(*bandwidth) : nlohmann::json(nullptr)},
      {"k", k_},
      {"ratio", n == 0 ? 0.0 : static_cast<double>(k_) / n},
      // The measured calls (before the check's first reset): warm-up, timed and instrumented.
      {"ratio_per_call", per_call},
  };
}

}  // namespace pico::compressed

namespace pico::compressed {
// Tests drive AdaptiveTopk directly (its clock injected), where run() is
// devirtualised and needs call<> itself, not only through the vtable.
template void AdaptiveTopk::call(std::span<const float>, std::span<float>, std::uint64_t, transport::NoPhases);
template void AdaptiveTopk::call(std::span<const float>, std::span<float>, std::uint64_t, PhaseHook);
}  // namespace pico::compressed
