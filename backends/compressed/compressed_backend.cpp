#include "backends/compressed/compressed_backend.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "collectives/compressed/options.hpp"
#include "core/hash.hpp"
#include "worker/harness.hpp"

namespace pico {
namespace {

// Far from the timed calls' numbers, so the checked call draws its own random numbers.
constexpr std::uint64_t kCheckedCall = 1ULL << 31;


}  // namespace

void CompressedBackend::prepare(const Case& c, MPI_Comm comm) {
  if (c.collective != Collective::allreduce || c.dtype != Dtype::float32 || c.op != Op::sum || c.in_place)
    throw std::invalid_argument("compressed allreduce takes float32 input, op sum, not in place");
  case_ = c;
  const compressed::Options options = compressed::options_from_case(c.options);
  inputs_ = options.inputs;
  bias_calls_ = options.bias_calls;
  setup_ = compressed::Setup{.comm = comm, .rank = 0, .np = 1, .n = c.count, .seed = options.inputs.seed, .params = c.params};
  MPI_Comm_rank(comm, &setup_.rank);
  MPI_Comm_size(comm, &setup_.np);
  algorithm_ = compressed::make_compressed_allreduce(c.algorithm, setup_);
  input_.resize(c.count);
  output_.assign(c.count, 0.0f);
  compressed::generate_input(inputs_, setup_.rank, input_);
  call_ = 0;
  reference_.reset();
}

void CompressedBackend::run_checked_call() {
  algorithm_->reset();
  algorithm_->run(input_, output_, kCheckedCall);
}

// Every rank's input is regenerated here from (spec, rank): p n draws, outside timing.
const compressed::ExactReference& CompressedBackend::reference() {
  if (reference_) return *reference_;
  compressed::ExactReference ref;
  const std::size_t n = input_.size();
  ref.mean.assign(n, 0.0);
  ref.abs_mean.assign(n, 0.0);
  if (algorithm_->replays()) ref.replay.assign(n, 0.0f);
  std::vector<float> x(n);
  for (int r = 0; r < setup_.np; ++r) {
    compressed::generate_input(inputs_, r, x);
    for (std::size_t i = 0; i < n; ++i) {
      ref.mean[i] += x[i];
      ref.abs_mean[i] += std::fabs(x[i]);
      ref.scale = std::max(ref.scale, std::fabs(x[i]));
    }
    if (algorithm_->replays()) algorithm_->replay_rank(x, ref.replay);
  }
  for (std::size_t i = 0; i < n; ++i) {
    ref.mean[i] /= setup_.np;
    ref.abs_mean[i] /= setup_.np;
  }
  if (algorithm_->replays()) algorithm_->finish_replay(ref.replay);
  return reference_.emplace(std::move(ref));
}

std::uint64_t CompressedBackend::validate() {
  run_checked_call();
  const std::uint64_t violations = algorithm_->violations(output_, reference());
  algorithm_->reset();
  return violations;
}

bool CompressedBackend::record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) {
  for (int i = 0; i < calls; ++i) {
    before_each();
    recorder.begin_call();
    algorithm_->run_marked(input_, output_, call_++, recorder);
    recorder.end_call();
  }
  return true;
}

nlohmann::json CompressedBackend::compression(MPI_Comm harness) {
  const auto& ref = reference();
  const std::size_t n = output_.size();
  run_checked_call();
  // Errors of the checked call: [0] squared error, [1] max abs error; [2] |exact|^2.
  double sums[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const double err = output_[i] - ref.mean[i];
    sums[0] += err * err;
    sums[1] = std::max(sums[1], std::fabs(err));
    sums[2] += ref.mean[i] * ref.mean[i];
  }
  const std::uint64_t fingerprint = fnv1a64(std::as_bytes(std::span(output_)));
  unsigned long long hash[2] = {fingerprint, ~fingerprint};
  harness::allreduce(harness, hash, 2, harness::Reduction::max);
  const bool identical = hash[0] == ~hash[1];  // max == min

  // Bias: the mean of bias_calls consecutive calls (error feedback carried
  // as in training) against the exact mean. An unbiased method's average
  // error shrinks as 1/sqrt(calls): the noise floor.
  algorithm_->reset();
  std::vector<double> average(n, 0.0);
  for (int c = 0; c < bias_calls_; ++c) {
    algorithm_->run(input_, output_, kCheckedCall + 1 + static_cast<std::uint64_t>(c));
    for (std::size_t i = 0; i < n; ++i) average[i] += output_[i];
  }
  double bias_sq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = average[i] / bias_calls_ - ref.mean[i];
    bias_sq += err * err;
  }
  algorithm_->reset();
  double worst[3] = {sums[0], sums[1], bias_sq};  // the worst rank's values (identical ranks agree)
  harness::allreduce(harness, worst, 3, harness::Reduction::max);

  const double norm = std::sqrt(sums[2]);
  auto relative = [&](double squared) -> nlohmann::json {
    if (norm == 0) return nullptr;
    return std::sqrt(squared) / norm;
  };
  const compressed::WireVolume wire = algorithm_->wire();
  const double dense_bytes = 4.0 * static_cast<double>(n);
  const double bits_per_element = n == 0 ? 0 : 8.0 * wire.payload_bytes / static_cast<double>(n);
  nlohmann::json j = {
      {"algorithm", case_.algorithm},
      {"parameters", algorithm_->describe()},
      {"result", "mean over ranks"},
      {"inputs", compressed::inputs_to_json(inputs_)},
      {"seed", inputs_.seed},
      {"scale", ref.scale},
      {"payload_bytes_per_rank", wire.payload_bytes},
      {"wire_bytes_per_rank", wire.wire_bytes},
      {"dense_wire_bytes_per_rank", 2.0 * (setup_.np - 1) / setup_.np * dense_bytes},
      {"bits_per_element", bits_per_element},
      {"compression_ratio", bits_per_element == 0 ? nlohmann::json(nullptr) : nlohmann::json(32.0 / bits_per_element)},
      {"rel_l2_error", relative(worst[0])},
      {"nmse", norm == 0 ? nlohmann::json(nullptr) : nlohmann::json(worst[0] / sums[2])},
      {"max_abs_error", worst[1]},
      {"mse", n == 0 ? 0.0 : worst[0] / static_cast<double>(n)},
      {"mse_bound", nullptr},
      {"bias_calls", bias_calls_},
      {"bias_rel_l2", relative(worst[2])},
      {"bias_noise_floor_rel_l2", norm == 0 ? nlohmann::json(nullptr)
                                            : nlohmann::json(std::sqrt(worst[0]) / norm / std::sqrt(bias_calls_))},
      {"identical_across_ranks", identical},
  };
  if (const auto bound = algorithm_->mse_bound(ref)) j["mse_bound"] = *bound;
  return j;
}

void CompressedBackend::release() {
  algorithm_.reset();
  reference_.reset();
  input_ = {};
  output_ = {};
}

}  // namespace pico
