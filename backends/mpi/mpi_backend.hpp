// SPDX-License-Identifier: BSD-3-Clause
// The MPI library's own collectives (MPI_Allreduce, MPI_Bcast, ...).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "backends/mpi/call_args.hpp"
#include "backends/mpi/persistent_call.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/spec.hpp"
#include "support/page_buffer.hpp"

namespace pico {

// The collective in the case's call form (core/case.hpp, CallForm): the
// blocking call, MPI_I<Coll> then MPI_Waitall, or the persistent form made
// once per case and started and completed per call.
class MpiBackend : public Backend {
 public:
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override;
  bool splits_call() const override { return form_ == CallForm::nonblocking; }
  void start_call() override { start_(args_, started_); }
  void wait_call() override { MPI_Waitall(started_.count, started_.requests.data(), MPI_STATUSES_IGNORE); }
  std::uint64_t validate() override;
  void release() override;

 protected:
  // Validation split in steps so that a wrapper can act between them.
  void fill_inputs();
  std::uint64_t count_mismatches();
  // This rank's result bytes (the receive buffer).
  std::span<std::byte> result_bytes() { return {recv_.data(), recv_bytes_}; }
  const Case& current_case() const { return case_; }
  // The resolved call arguments (buffers or MPI_IN_PLACE, count, type, op, root, comm).
  const MpiCallArgs& call_args() const { return args_; }
  int rank() const { return rank_; }
  // A count-matrix collective's layout for this rank (empty for the others).
  const VectorLayout& vector_layout() const { return layout_; }

 private:
  void set_vector_args(const Case& c);
  void set_rank_counts(const Case& c, int np);

  Case case_;
  int rank_ = 0;
  // Mapped pages of their own, not the heap (support/page_buffer.hpp says why: issue 64).
  PageBuffer send_;
  PageBuffer recv_;
  std::size_t recv_bytes_ = 0;  // the receive buffer's size; the buffer holds at least a byte
  MpiCallArgs args_;
  // alltoallv: this rank's layout, and its counts and displacements as MPI's
  // ints (send counts, send displacements, receive counts, receive
  // displacements; args_ points into them). reduce_scatterv: every rank's
  // receive count, in the third.
  VectorLayout layout_;
  std::array<std::vector<int>, 4> vector_args_;
  MpiCall call_ = nullptr;
  CallForm form_ = CallForm::blocking;
  MpiStartCall start_ = nullptr;  // nonblocking: MPI_I<Coll>
  MpiRequests started_;           // its requests, reused by every call
  PersistentCall persistent_;  // declared after the buffers it points into, so freed before them
};

}  // namespace pico
