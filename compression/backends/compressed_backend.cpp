// SPDX-License-Identifier: BSD-3-Clause
#include "compression/backends/compressed_backend.hpp"

#include <stdexcept>

#include "compression/allreduce/evaluation.hpp"
#include "compression/families/registry.hpp"
#include "compression/options/options.hpp"

namespace pico {

using compressed::kCheckedCall;

void CompressedBackend::prepare(const Case& c, MPI_Comm comm) {
  if (c.collective != Collective::allreduce || c.dtype != Dtype::float32 || c.op != Op::sum || c.in_place)
    throw std::invalid_argument("compressed allreduce takes float32 input, op sum, not in place");
  case_ = c;
  const compressed::Options options = compressed::options_from_case(c.options);
  inputs_ = options.inputs;
  bias_calls_ = options.bias_calls;
  kernel_threads_.emplace(options.threads);
  setup_ = compressed::Setup{.comm = comm, .rank = 0, .np = 1, .n = c.count, .seed = options.inputs.seed, .params = c.params};
  MPI_Comm_rank(comm, &setup_.rank);
  MPI_Comm_size(comm, &setup_.np);
  algorithm_ = compressed::make_compressed_allreduce(c.algorithm, setup_);
  input_bytes_ = PageBuffer(c.count * sizeof(float));
  output_bytes_ = PageBuffer(c.count * sizeof(float));
  input_ = {reinterpret_cast<float*>(input_bytes_.data()), c.count};
  output_ = {reinterpret_cast<float*>(output_bytes_.data()), c.count};
  compressed::generate_input(inputs_, setup_.rank, input_);
  call_ = 0;
  reference_.reset();
}

void CompressedBackend::run_checked_call() {
  algorithm_->reset();
  algorithm_->run(input_, output_, kCheckedCall);
}

const compressed::ExactReference& CompressedBackend::reference() {
  if (!reference_) reference_ = compressed::exact_reference(*algorithm_, inputs_, setup_.np, input_.size());
  return *reference_;
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
  const compressed::Evaluated e{
      .algorithm = *algorithm_,
      .name = case_.algorithm,
      .inputs = inputs_,
      .np = setup_.np,
      .bias_calls = bias_calls_,
      .run = [this](std::uint64_t call) -> std::span<const float> {
        algorithm_->run(input_, output_, call);
        return output_;
      },
      .reset = [this] { algorithm_->reset(); },
  };
  return compressed::compression_report(e, reference(), harness);
}

void CompressedBackend::release() {
  algorithm_.reset();
  reference_.reset();
  kernel_threads_.reset();
  input_ = {};
  output_ = {};
  input_bytes_ = PageBuffer();  // its pages kept mapped for the next case
  output_bytes_ = PageBuffer();
}

}  // namespace pico
