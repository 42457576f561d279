// Puts a case's algorithm in force and says whether the library took it.
//   mpi_t: write the control variables, read them back, MPI_Comm_dup, so the
//          new communicator's coll module picks the forced algorithm up;
//   env:   the launch set the variables before MPI_Init; read them back;
//   none/builtin: nothing to apply.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <mpi.h>

#include "worker/mpi_tools.hpp"
#include "core/case.hpp"
#include "harness/mpi_handles.hpp"

namespace pico {

struct AppliedSelection {
  bool verified = false;
  bool refused = false;        // mpi_t writing failed: the front end falls back to environment variables
  std::string applied;         // the selection variable's value as read back
  std::string note;            // why not verified / refused
  MPI_Comm comm = MPI_COMM_NULL;  // where to measure
};

class AlgorithmSelector {
 public:
  // shared: the communicator for cases that force nothing at run time.
  AlgorithmSelector(MPI_Comm harness, MPI_Comm shared);
  // Collective over harness.
  AppliedSelection apply(const Selection& s);

 private:
  AppliedSelection apply_mpi_t(const Selection& s);
  AppliedSelection check_environment(const Selection& s, AppliedSelection a);
  MPI_Comm harness_;
  MPI_Comm shared_;
  ControlVariables cvars_;
  std::unique_ptr<DupComm> forced_;  // communicator created under forced_selection_
  std::optional<Selection> forced_selection_;
};

}  // namespace pico
