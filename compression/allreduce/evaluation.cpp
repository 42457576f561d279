// SPDX-License-Identifier: BSD-3-Clause
#include "compression/allreduce/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "compression/options/options.hpp"
#include "core/compression_metrics.hpp"
#include "harness/harness.hpp"
#include "support/hash.hpp"

namespace pico::compressed {

ExactReference exact_reference(const CompressedAllreduce& algorithm, const InputSpec& inputs, int np, std::size_t n) {
  ExactReference ref;
  ref.mean.assign(n, 0.0);
  ref.abs_mean.assign(n, 0.0);
  if (algorithm.replays()) ref.replay.assign(n, 0.0f);
  std::vector<float> x(n);
  for (int r = 0; r < np; ++r) {
    generate_input(inputs, r, x);
    for (std::size_t i = 0; i < n; ++i) {
      ref.mean[i] += x[i];
      ref.abs_mean[i] += std::fabs(x[i]);
      ref.scale = std::max(ref.scale, std::fabs(x[i]));
    }
    if (algorithm.replays()) algorithm.replay_rank(x, ref.replay);
  }
  for (std::size_t i = 0; i < n; ++i) {
    ref.mean[i] /= np;
    ref.abs_mean[i] /= np;
  }
  if (algorithm.replays()) algorithm.finish_replay(ref.replay);
  return ref;
}

nlohmann::json compression_report(const Evaluated& e, const ExactReference& ref, MPI_Comm harness) {
  const std::size_t n = ref.mean.size();
  e.reset();
  const std::span<const float> output = e.run(kCheckedCall);
  // Errors of the checked call: [0] squared error, [1] max abs error; [2] |exact|^2.
  double sums[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const double err = output[i] - ref.mean[i];
    sums[0] += err * err;
    sums[1] = std::max(sums[1], std::fabs(err));
    sums[2] += ref.mean[i] * ref.mean[i];
  }
  const std::uint64_t fingerprint = fnv1a64(std::as_bytes(output));
  unsigned long long hash[2] = {fingerprint, ~fingerprint};
  harness::allreduce(harness, hash, 2, harness::Reduction::max);
  const bool identical = hash[0] == ~hash[1];  // max == min

  // Bias: the mean of bias_calls consecutive calls (error feedback carried
  // as in training) against the exact mean. An unbiased method's average
  // error shrinks as 1/sqrt(calls): the noise floor.
  e.reset();
  std::vector<double> average(n, 0.0);
  for (int c = 0; c < e.bias_calls; ++c) {
    const std::span<const float> out = e.run(kCheckedCall + 1 + static_cast<std::uint64_t>(c));
    for (std::size_t i = 0; i < n; ++i) average[i] += out[i];
  }
  double bias_sq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = average[i] / e.bias_calls - ref.mean[i];
    bias_sq += err * err;
  }
  e.reset();
  double worst[3] = {sums[0], sums[1], bias_sq};  // the worst rank's values (identical ranks agree)
  harness::allreduce(harness, worst, 3, harness::Reduction::max);

  const double norm = std::sqrt(sums[2]);
  auto relative = [&](double squared) -> nlohmann::json {
    if (norm == 0) return nullptr;
    return std::sqrt(squared) / norm;
  };
  const WireVolume wire = e.algorithm.wire();
  const double dense_bytes = 4.0 * static_cast<double>(n);
  const double bits_per_element = n == 0 ? 0 : 8.0 * wire.payload_bytes / static_cast<double>(n);
  nlohmann::json j = {
      {"algorithm", e.name},
      {"parameters", e.algorithm.describe()},
      {"result", "mean over ranks"},
      {"inputs", inputs_to_json(e.inputs)},
      {"seed", e.inputs.seed},
      {"scale", ref.scale},
      {"payload_bytes_per_rank", wire.payload_bytes},
      {"wire_bytes_per_rank", wire.wire_bytes},
      {"dense_wire_bytes_per_rank", 2.0 * (e.np - 1) / e.np * dense_bytes},
      {CompressionMetrics::kBitsPerElement, bits_per_element},
      {"compression_ratio", bits_per_element == 0 ? nlohmann::json(nullptr) : nlohmann::json(32.0 / bits_per_element)},
      {CompressionMetrics::kRelL2Error, relative(worst[0])},
      {"nmse", norm == 0 ? nlohmann::json(nullptr) : nlohmann::json(worst[0] / sums[2])},
      {"max_abs_error", worst[1]},
      {"mse", n == 0 ? 0.0 : worst[0] / static_cast<double>(n)},
      {"mse_bound", nullptr},
      {"bias_calls", e.bias_calls},
      {CompressionMetrics::kBiasRelL2, relative(worst[2])},
      {"bias_noise_floor_rel_l2", norm == 0 ? nlohmann::json(nullptr)
                                            : nlohmann::json(std::sqrt(worst[0]) / norm / std::sqrt(e.bias_calls))},
      {CompressionMetrics::kIdenticalAcrossRanks, identical},
  };
  if (const auto bound = e.algorithm.mse_bound(ref)) j["mse_bound"] = *bound;
  return j;
}

}  // namespace pico::compressed
