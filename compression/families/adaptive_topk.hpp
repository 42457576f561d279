// SPDX-License-Identifier: BSD-3-Clause
// Top-k whose ratio follows the link (Kimad-style).
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"
#include "compression/allreduce/replayed_mean.hpp"
#include "compression/kernels/adaptive_ratio.hpp"

namespace pico::compressed {

// Top-k whose ratio follows the link, in the spirit of Kimad (Xin et al.,
// 2023): each call picks k / n from a smoothed bandwidth (the bytes of the
// earlier calls' allgather over its measured time) and time_target, within
// [min_ratio, max_ratio]; topk_ratio until a measurement arrives. Each
// rank's message leads with its own time for the previous call's allgather,
// so after this call's allgather every rank holds the same p times and makes
// the same update: the ranks agree on k without a message of its own (the
// choice lags the measurement by one call). Error feedback as Topk's.
class AdaptiveTopk final : public ReplayedMean<AdaptiveTopk> {
 public:
  // Seconds from a steady clock; tests inject their own to set what the
  // communicate phase appears to take.
  using Clock = std::function<double()>;
  explicit AdaptiveTopk(const Setup& s, Clock clock = {});
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  // Forgets the residual; the bandwidth estimate describes the link, not the result, and stays.
  void reset() override;
  WireVolume wire() const override;  // of the last call
  nlohmann::json describe() const override;
  // The check replays the last call (its k, no residual): CompressedBackend::validate replays after its call.
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  std::size_t k() const { return k_; }  // of the last call
  std::optional<double> bandwidth() const { return bandwidth_.bytes_per_second(); }

 private:
  std::size_t choose_k() const;
  // Bytes of one rank's message for k pairs: the 8-byte time, k indices, k values.
  static std::size_t message_bytes(std::size_t k) { return 8 + 8 * k; }
  Setup setup_;
  RatioRule rule_;
  double start_ratio_;
  bool error_feedback_;
  Clock clock_;
  WireModel wire_model_;
  BandwidthEstimate bandwidth_;
  std::size_t k_ = 0;
  double previous_seconds_ = 0;     // this rank's allgather time of the previous call, sent with this one
  double previous_wire_bytes_ = 0;  // what that allgather moved per rank (0: nothing measured yet)
  std::vector<float> residual_;
  TopkScratch scratch_;
  mutable TopkScratch replay_scratch_;
  std::vector<std::byte> gathered_;  // p messages, sized for max_ratio
  std::vector<SparseList> lists_;
  std::vector<std::size_t> cursors_;
  // The ratio of each call before the first reset() (warm-up, timed and
  // instrumented calls), up to the reserved capacity, for describe().
  std::vector<float> ratios_;
  std::uint64_t logged_calls_ = 0;
  bool logging_ = true;
};

}  // namespace pico::compressed
