// SPDX-License-Identifier: BSD-3-Clause
// MPI_T control variables: how pico forces an Open MPI algorithm at run time
// (write coll_tuned_<coll>_algorithm, then MPI_Comm_dup) and how it reads
// back what the library actually holds.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <mpi.h>

namespace pico {

// MPI_T_init_thread / MPI_T_finalize. Must end before MPI_Finalize (Open MPI
// 4.1 crashes the other way round), so declare it after the MPI session.
class MpiToolsSession {
 public:
  MpiToolsSession();
  ~MpiToolsSession();
  MpiToolsSession(const MpiToolsSession&) = delete;
  MpiToolsSession& operator=(const MpiToolsSession&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_ = false;
};

// Every control variable whose name starts with `prefix` and whose type is an
// MPI_T enumeration, with its items (value -> name): what the library itself
// says its algorithms are, which tests/tools/check_catalog_mpi_t.py compares
// with the catalogue (`pico-worker --mpi-t-enums PREFIX`).
std::map<std::string, std::map<int, std::string>> enumerated_variables(const std::string& prefix);

// Reads and writes control variables by name (no object binding).
class ControlVariables {
 public:
  // Writes `value` (an integer, or an enum item's name). Empty string on
  // success, else why it failed.
  std::string write(const std::string& name, const std::string& value);
  // The value as text; enums read as their numeric value. nullopt if the
  // variable does not exist or cannot be read.
  std::optional<std::string> read(const std::string& name);
  // For enums: the item name of the current value ("ring"), else nullopt.
  std::optional<std::string> read_enum_name(const std::string& name);

 private:
  struct Info {
    int index = -1;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
  };
  std::optional<Info> lookup(const std::string& name);
  std::map<std::string, Info> cache_;
};

}  // namespace pico
