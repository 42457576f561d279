// NCCL's collectives on device buffers, one GPU per rank. Calls are enqueued
// on the session's stream and timed there with CUDA events: the host clock
// would time the enqueue, not the collective.
#pragma once

#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/nccl/cuda_handles.hpp"
#include "backends/nccl/nccl_calls.hpp"
#include "backends/nccl/tuning_log.hpp"

namespace pico::nccl {

class NcclSession;

class NcclBackend final : public Backend {
 public:
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { note(call_(args_)); }
  void time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) override;
  std::uint64_t validate() override;
  void release() override;
  std::string deferred_error() const override;
  nlohmann::json device() const override;
  nlohmann::json reported_selection() const override;

 private:
  void fill_inputs();
  // Calls in the timed loop are not checked one by one: the first failure is kept for after it.
  void note(ncclResult_t r) { first_nccl_error_ = first_nccl_error_ != ncclSuccess ? first_nccl_error_ : r; }
  void note(cudaError_t e) { first_cuda_error_ = first_cuda_error_ != cudaSuccess ? first_cuda_error_ : e; }

  Case case_;
  NcclSession* session_ = nullptr;
  DeviceBuffer send_;
  DeviceBuffer recv_;
  DeviceBuffer counter_;
  NcclCallArgs args_;
  NcclCall call_ = nullptr;
  std::vector<TuningChoice> reported_;  // what NCCL logged for the checked call
  ncclResult_t first_nccl_error_ = ncclSuccess;
  cudaError_t first_cuda_error_ = cudaSuccess;
};

}  // namespace pico::nccl
