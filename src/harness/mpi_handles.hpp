// SPDX-License-Identifier: BSD-3-Clause
// RAII for the MPI handles the worker owns.
#pragma once

#include <mpi.h>

namespace pico {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv) { MPI_Init(argc, argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A duplicate of a communicator, freed on scope exit.
class DupComm {
 public:
  explicit DupComm(MPI_Comm parent) { MPI_Comm_dup(parent, &comm_); }
  ~DupComm() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  DupComm(const DupComm&) = delete;
  DupComm& operator=(const DupComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace pico
