// SPDX-License-Identifier: BSD-3-Clause
// The launch's NCCL communicators. ncclCommInitRank costs from a hundred
// milliseconds to seconds, so one set of communicators over the measured MPI
// communicator's processes serves every case of a launch (NCCL_ALGO and
// NCCL_PROTO are fixed per launch anyway). Bootstrapped through MPI: rank 0's
// ncclUniqueId is broadcast. A process drives one GPU (one lane) or, with the
// nccl backend's gpus_per_process, several: a single process can then drive
// every GPU of its host, as nccl-tests' -g does.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "backends/nccl/cuda_handles.hpp"
#include "backends/nccl/tuning_log.hpp"

namespace pico::nccl {

// One GPU a process drives: its NCCL rank and communicator, and a stream and
// timing events created on that device.
struct Lane {
  Lane(int device, int rank);
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;
  ~Lane();

  // Makes this lane's device current: kernels and allocations go to the current device.
  void activate() const;

  const int device;
  const int rank;
  ncclComm_t comm = nullptr;
  Stream stream;
  std::vector<Event> events;  // one per call of a back-to-back batch, plus one
};

class NcclSession {
 public:
  // The session over `comm` with `lanes_per_process` GPUs per process, created
  // on first use: collective over comm then. Throws (on every rank alike where
  // the cause is shared) when a node has fewer GPUs than it needs or NCCL
  // cannot start.
  static NcclSession& for_comm(MPI_Comm comm, int lanes_per_process = 1);
  // Frees the communicators and streams; before MPI_Finalize.
  static void shutdown();
  // After a failed call: aborts the communicators so the next case starts afresh.
  static void discard();
  // NCCL's log of its tuning choices (one per process, as NCCL's log is).
  static TuningLog& tuning_log();

  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;
  ~NcclSession();

  std::span<const std::unique_ptr<Lane>> lanes() const { return lanes_; }
  // NCCL ranks in all: processes x lanes per process.
  int size() const { return size_; }
  // The one lane of a session with one GPU per process (nccl_compressed's).
  const Lane& lane() const { return *lanes_.front(); }
  // Devices, NCCL version, ranks: for the report's provenance.
  nlohmann::json describe() const;

 private:
  NcclSession(MPI_Comm comm, int lanes_per_process);
  MPI_Comm mpi_comm_;
  int size_ = 0;
  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace pico::nccl
