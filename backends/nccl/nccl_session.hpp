// The launch's NCCL communicator. ncclCommInitRank costs from a hundred
// milliseconds to seconds, so one communicator over the measured MPI
// communicator's ranks serves every case of a launch (NCCL_ALGO and
// NCCL_PROTO are fixed per launch anyway). Bootstrapped through MPI: rank 0's
// ncclUniqueId is broadcast; each rank takes the GPU of its node-local rank.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "backends/nccl/cuda_handles.hpp"
#include "backends/nccl/tuning_log.hpp"

namespace pico::nccl {

class NcclSession {
 public:
  // The session over `comm`, created on first use: collective over comm then.
  // Throws (on every rank alike where the cause is shared) when this node has
  // fewer GPUs than ranks or NCCL cannot start.
  static NcclSession& for_comm(MPI_Comm comm);
  // Frees the communicator and its stream; before MPI_Finalize.
  static void shutdown();
  // After a failed call: aborts the communicator so the next case starts afresh.
  static void discard();
  // NCCL's log of its tuning choices (one per process, as NCCL's log is).
  static TuningLog& tuning_log();

  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;
  ~NcclSession();

  ncclComm_t comm() const { return comm_; }
  cudaStream_t stream() const { return stream_.get(); }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Timing events, reused across cases: one per call of a back-to-back batch, plus one.
  std::vector<Event>& events() { return events_; }
  // Device, NCCL version, ranks: for the report's provenance.
  nlohmann::json describe() const;

 private:
  explicit NcclSession(MPI_Comm comm);
  MPI_Comm mpi_comm_;
  int device_;
  int rank_ = 0;
  int size_ = 0;
  Stream stream_;
  ncclComm_t comm_ = nullptr;
  std::vector<Event> events_;
};

}  // namespace pico::nccl
