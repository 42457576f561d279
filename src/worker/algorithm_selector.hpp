// SPDX-License-Identifier: BSD-3-Clause
// Puts a case's algorithm in force and says whether the library took it.
//   mpi_t: write the control variables (the `readback` id where the catalogue
//          gives one: MPICH takes names only from the environment), read them
//          back; where the library reads them when a communicator is created
//          (Open MPI), MPI_Comm_dup so the new communicator's coll module
//          picks the forced algorithm up; where it reads them at every call
//          (MPICH), measure on the shared communicator;
//   env:   the launch set the variables before MPI_Init; read them back;
//   none/builtin: nothing to apply.
// A case runs under its own selection only: variables an earlier case wrote
// and this one does not set go back to their launch values first (MPICH
// applies them to every communicator, and its collectives call one another).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
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
  // Writes a variable, first noting its launch value. Empty on success, else why not.
  std::string write(const std::string& variable, const std::string& value);
  // Puts the variables written for earlier cases, but those in `keep`, back
  // to their launch values. Empty on success, else why not.
  std::string restore_all_but(const std::set<std::string>& keep);
  MPI_Comm harness_;
  MPI_Comm shared_;
  ControlVariables cvars_;
  // variable -> its value before pico wrote it (nullopt: unreadable), for
  // every variable written since it was last restored. The same keys on every rank.
  std::map<std::string, std::optional<std::string>> launch_values_;
  std::unique_ptr<DupComm> forced_;  // communicator created under forced_selection_
  std::optional<Selection> forced_selection_;
};

}  // namespace pico
