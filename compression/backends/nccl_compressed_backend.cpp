// SPDX-License-Identifier: BSD-3-Clause
#include "compression/backends/nccl_compressed_backend.hpp"

#include <algorithm>
#include <stdexcept>

#include "backends/nccl/event_timing.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "compression/allreduce/evaluation.hpp"
#include "compression/families/registry.hpp"
#include "compression/options/options.hpp"

namespace pico {

// This backend joins NCCL's session and handles to the GPU algorithms: both by their short names here.
using namespace nccl;
using namespace compressed::gpu;

using compressed::kCheckedCall;

void NcclCompressedBackend::prepare(const Case& c, MPI_Comm comm) {
  if (c.collective != Collective::allreduce || c.dtype != Dtype::float32 || c.op != Op::sum || c.in_place)
    throw std::invalid_argument("compressed allreduce takes float32 input, op sum, not in place");
  case_ = c;
  const compressed::Options options = compressed::options_from_case(c.options);
  inputs_ = options.inputs;
  bias_calls_ = options.bias_calls;
  session_ = &NcclSession::for_comm(comm);
  setup_ = compressed::Setup{.comm = comm,
                             .rank = session_->lane().rank,
                             .np = session_->size(),
                             .n = c.count,
                             .seed = options.inputs.seed,
                             .params = c.params};
  try {
    const std::size_t bytes = std::max<std::size_t>(c.count, 1) * sizeof(float);
    input_ = DeviceBuffer(bytes);
    output_ = DeviceBuffer(bytes);
    result_.assign(c.count, 0.0f);
    std::vector<float> input(c.count);
    compressed::generate_input(inputs_, setup_.rank, input);
    cuda::copy_to_device(input_.as<float>(), input.data(), input.size(), "copying the input to the device");
    const GpuSetup gpu{.comm = session_->lane().comm,
                       .stream = session_->lane().stream.get(),
                       .rank = setup_.rank,
                       .np = setup_.np,
                       .n = c.count,
                       .seed = setup_.seed,
                       .in = input_.as<float>(),
                       .out = output_.as<float>()};
    gpu_ = make_gpu_allreduce(c.algorithm, gpu, setup_);
    host_ = compressed::make_compressed_allreduce(c.algorithm, setup_);
    marks_.emplace(kMaxMarks);
    // One checked call: what NCCL or the kernels cannot do here fails now, with
    // the reason; NCCL logs the algorithm and protocol of each of its calls (rank 0).
    reported_ = NcclSession::tuning_log().capture([this] { run_to_host(kCheckedCall); });
    reset();
  } catch (...) {
    release();
    NcclSession::discard();  // a failed communicator is not reused
    throw;
  }
  call_ = 0;
  reference_.reset();
}

std::span<const float> NcclCompressedBackend::run_to_host(std::uint64_t call) {
  gpu_->run(call);
  if (gpu_->first_nccl_error() != ncclSuccess) nccl_check(gpu_->first_nccl_error(), "compressed allreduce");
  check_cuda(cudaMemcpyAsync(result_.data(), output_.data(), result_.size() * sizeof(float), cudaMemcpyDeviceToHost,
                             session_->lane().stream.get()),
             "copying the result to the host");
  check_cuda(cudaStreamSynchronize(session_->lane().stream.get()), "compressed allreduce");
  check_cuda(gpu_->first_cuda_error(), "compressed allreduce");
  return result_;
}

void NcclCompressedBackend::reset() {
  gpu_->reset();
  check_cuda(cudaStreamSynchronize(session_->lane().stream.get()), "resetting the error feedback");
}

void NcclCompressedBackend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  // A graph replays the call numbers it captured (the same random draws each
  // replay): the same work, timed as a captured training step runs it.
  time_samples(
      session_->lanes(), pacing, out, n, harness, graph_, [this] { gpu_->run(call_++); },
      [this](cudaError_t e) { note(e); });
}

const compressed::ExactReference& NcclCompressedBackend::reference() {
  if (!reference_) reference_ = compressed::exact_reference(*host_, inputs_, setup_.np, case_.count);
  return *reference_;
}

std::uint64_t NcclCompressedBackend::validate() {
  reset();
  const std::span<const float> out = run_to_host(kCheckedCall);
  const std::uint64_t violations = host_->violations(out, reference());
  reset();
  return violations;
}

// Device time between the events at the phase marks, waited for at the end of each call.
bool NcclCompressedBackend::record_phases(int calls, PhaseRecorder& recorder,
                                          const std::function<void()>& before_each) {
  for (int i = 0; i < calls; ++i) {
    before_each();
    recorder.begin_call();
    marks_->begin(session_->lane().stream.get());
    gpu_->run_marked(call_++, *marks_);
    marks_->finish(recorder);
    recorder.end_call();
  }
  return true;
}

nlohmann::json NcclCompressedBackend::compression(MPI_Comm harness) {
  const compressed::Evaluated e{
      .algorithm = *host_,
      .name = case_.algorithm,
      .inputs = inputs_,
      .np = setup_.np,
      .bias_calls = bias_calls_,
      .run = [this](std::uint64_t call) { return run_to_host(call); },
      .reset = [this] { reset(); },
  };
  nlohmann::json j = compressed::compression_report(e, reference(), harness);
  if (j["parameters"].contains("communicate")) j["parameters"]["communicate"] = "nccl";
  return j;
}

// The algorithm's calls' errors first, then the timing events'.
std::string NcclCompressedBackend::deferred_error() const {
  if (gpu_)
    if (auto text = first_error_text(gpu_->first_nccl_error(), gpu_->first_cuda_error()); !text.empty()) return text;
  return first_error_text(ncclSuccess, first_cuda_error_);
}

nlohmann::json NcclCompressedBackend::reported_selection() const {
  return nccl::reported_selection(NcclSession::tuning_log(), reported_, setup_.np);
}

nlohmann::json NcclCompressedBackend::device() const {
  return session_ != nullptr ? session_->describe() : nullptr;
}

void NcclCompressedBackend::release() {
  if (session_ != nullptr) cudaStreamSynchronize(session_->lane().stream.get());
  const bool failed = !deferred_error().empty();
  graph_.clear();
  gpu_.reset();
  host_.reset();
  marks_.reset();
  input_ = DeviceBuffer();
  output_ = DeviceBuffer();
  result_ = {};
  reference_.reset();
  if (failed) NcclSession::discard();
  session_ = nullptr;
}

}  // namespace pico
