// SPDX-License-Identifier: BSD-3-Clause
// NCCL's collectives on device buffers, one NCCL rank per GPU; a process
// drives one GPU or, with gpus_per_process, several (its ranks' calls then
// go in one NCCL group). Calls are enqueued on the GPUs' streams and timed
// there with CUDA events: the host clock would time the enqueue, not the
// collective.
#pragma once

#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/nccl/cuda_handles.hpp"
#include "backends/nccl/nccl_calls.hpp"
#include "backends/nccl/tuning_log.hpp"
#include "collectives/count_matrix.hpp"

namespace pico::nccl {

class NcclSession;
struct Lane;

class NcclBackend final : public Backend {
 public:
  ~NcclBackend() override { free_slots(); }
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { note(launch()); }
  bool times_on_host() const override { return false; }  // timed on the device
  void time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) override;
  std::uint64_t validate() override;
  void release() override;
  std::string deferred_error() const override;
  nlohmann::json device() const override;
  nlohmann::json reported_selection() const override;

 private:
  // One NCCL rank this process drives: its GPU, buffers and bound arguments.
  struct RankSlot {
    int device = 0;
    DeviceBuffer send;
    DeviceBuffer recv;
    DeviceBuffer counter;
    NcclCallArgs args;   // the call at offset 0: checked, validated, and the first timed
    NcclCallArgs moved;  // rotate_buffers: the timed call at the current offset
    VectorLayout layout;  // alltoallv: the counts args points into (their heap arrays survive a move)
  };
  RankSlot make_slot(const Lane& lane, ncclDataType_t type) const;
  void plan_rotation();
  // Frees each slot's buffers with its GPU current.
  void free_slots();
  // One call of the collective on every rank of this process: the slot's call
  // alone, or all slots' calls in one NCCL group; chosen in prepare.
  // `args` picks each slot's arguments (the call at offset 0, or the moved one).
  using SlotArgs = NcclCallArgs RankSlot::*;
  using Launch = ncclResult_t (*)(NcclCall call, const std::vector<RankSlot>& slots, SlotArgs args);
  static ncclResult_t launch_alone(NcclCall call, const std::vector<RankSlot>& slots, SlotArgs args);
  static ncclResult_t launch_grouped(NcclCall call, const std::vector<RankSlot>& slots, SlotArgs args);
  ncclResult_t launch() const { return launch_(call_, slots_, &RankSlot::args); }
  // A timed call: with rotate_buffers, each at the next offset (nccl-tests'
  // cache avoidance), else launch().
  ncclResult_t timed_launch();
  void synchronize(const char* what) const;
  void fill_inputs();
  // Calls in the timed loop are not checked one by one: the first failure is kept for after it.
  void note(ncclResult_t r) { first_nccl_error_ = first_nccl_error_ != ncclSuccess ? first_nccl_error_ : r; }
  void note(cudaError_t e) { first_cuda_error_ = first_cuda_error_ != cudaSuccess ? first_cuda_error_ : e; }

  Case case_;
  NcclSession* session_ = nullptr;
  NcclCall call_ = nullptr;
  Launch launch_ = launch_alone;
  std::vector<RankSlot> slots_;
  // rotate_buffers: calls cycle through `rotations` offsets `rotation_stride` bytes apart.
  std::size_t rotations_ = 1;
  std::size_t rotation_stride_ = 0;
  std::size_t rotation_ = 0;
  cuda::Graph graph_;  // timing: {graph: N}'s captured calls, made at the first timed sample
  std::vector<TuningChoice> reported_;  // what NCCL logged for the checked call
  ncclResult_t first_nccl_error_ = ncclSuccess;
  cudaError_t first_cuda_error_ = cudaSuccess;
};

}  // namespace pico::nccl
