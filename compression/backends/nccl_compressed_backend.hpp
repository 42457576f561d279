// SPDX-License-Identifier: BSD-3-Clause
// Compressed allreduce on GPUs (nccl_compressed): the CPU backend's
// algorithms (dense, Global-QSGD 8-bit, Top-k) with the CUDA kernels of
// compression/kernels/gpu/ and NCCL for the communication, on the launch's
// NCCL session. Inputs, checks and the report's `compression` object are the
// CPU backend's (compression/allreduce/evaluation.hpp): the device result is
// copied to the host outside timing and held to the same guarantees, against
// the CPU twin of the algorithm (constructed for its parameters, guarantees
// and replay, never run).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/nccl/cuda_handles.hpp"
#include "backends/nccl/tuning_log.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/gpu/gpu_allreduce.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico {

namespace nccl {
class NcclSession;
}

class NcclCompressedBackend final : public Backend {
 public:
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { gpu_->run(call_++); }
  bool times_on_host() const override { return false; }  // timed on the device
  void time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) override;
  std::uint64_t validate() override;
  void release() override;
  bool record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) override;
  bool always_records_phases() const override { return true; }
  nlohmann::json compression(MPI_Comm harness) override;
  std::string deferred_error() const override;
  nlohmann::json device() const override;
  nlohmann::json reported_selection() const override;

 private:
  // Enqueues call number `call`, waits for it and returns the result on the host (checked: outside timing).
  std::span<const float> run_to_host(std::uint64_t call);
  // reset(), waited for.
  void reset();
  const compressed::ExactReference& reference();
  void note(cudaError_t e) { first_cuda_error_ = first_cuda_error_ != cudaSuccess ? first_cuda_error_ : e; }

  Case case_;
  compressed::Setup setup_;
  compressed::InputSpec inputs_;
  int bias_calls_ = 16;
  nccl::NcclSession* session_ = nullptr;
  std::unique_ptr<compressed::CompressedAllreduce> host_;
  nccl::DeviceBuffer input_, output_;
  std::unique_ptr<compressed::gpu::GpuAllreduce> gpu_;
  cuda::Graph graph_;  // timing: {graph: N}'s captured calls, made at the first timed sample
  std::optional<compressed::gpu::EventMarks> marks_;
  std::vector<float> result_;
  std::uint64_t call_ = 0;
  std::optional<compressed::ExactReference> reference_;
  std::vector<nccl::TuningChoice> reported_;  // what NCCL logged for the checked call
  cudaError_t first_cuda_error_ = cudaSuccess;
};

}  // namespace pico
