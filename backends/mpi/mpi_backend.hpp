// SPDX-License-Identifier: BSD-3-Clause
// The MPI library's own collectives (MPI_Allreduce, MPI_Bcast, ...).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "collectives/spec.hpp"

namespace pico {

// Arguments of one library call, resolved at prepare time (MPI_IN_PLACE
// included) so that run_once decides nothing.
struct MpiCallArgs {
  const void* send = nullptr;
  void* recv = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  int root = 0;
  int next = 0;  // ring neighbours (sendrecv): the rank sent to and the rank received from
  int prev = 0;
  MPI_Comm comm = MPI_COMM_NULL;
};

using MpiCall = int (*)(const MpiCallArgs&);

MPI_Datatype mpi_datatype(Dtype d);
MPI_Op mpi_op(Op o);

class MpiBackend : public Backend {
 public:
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { call_(args_); }
  std::uint64_t validate() override;
  void release() override;

 protected:
  // Validation split in steps so that a wrapper can act between them.
  void fill_inputs();
  std::uint64_t count_mismatches();
  // This rank's result bytes (the receive buffer).
  std::span<std::byte> result_bytes() { return recv_; }
  const Case& current_case() const { return case_; }
  // The resolved call arguments (buffers or MPI_IN_PLACE, count, type, op, root, comm).
  const MpiCallArgs& call_args() const { return args_; }
  int rank() const { return rank_; }

 private:
  Case case_;
  int rank_ = 0;
  std::vector<std::byte> send_;
  std::vector<std::byte> recv_;
  MpiCallArgs args_;
  MpiCall call_ = nullptr;
};

}  // namespace pico
