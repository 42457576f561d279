// SPDX-License-Identifier: BSD-3-Clause
// The MPI libraries a platform runs and how pico starts their programs, one
// entry each in configs/mpi_libraries.yaml: what the library's launcher
// prints, its mpirun flags, its worker and what an application's ranks
// preload. src/launch reads them here and names no library (CTest
// "structure: no library names in src/launch"); a library's algorithms are
// its catalogue (config/catalog.hpp).
#pragma once

#include <string>
#include <vector>

namespace pico {

struct MpiLibraryEntry {
  std::string name;  // its catalogue's and MpiIdentity::library's: openmpi, mpich
  // ECMAScript; a match in what `<launcher> --version` prints names this library, its group 1 the version.
  std::string launcher_version;
  std::string run_as_root_flag;    // mpirun's, for a launch as root (launcher allow_run_as_root); "" needs none
  std::string oversubscribe_flag;  // mpirun's, for more processes than cores (launcher oversubscribe); "" needs none
  std::string worker;              // the worker built against it, looked for beside pico
  std::string worker_build;        // how to build that worker, for the error that finds none
  std::string interposer;          // preloaded first where it shows which algorithm ran in a call; "" none
  std::string counter;             // the app counter built against it, preloaded into an application's ranks
};

struct MpiLibraryTable {
  std::vector<MpiLibraryEntry> libraries;  // in the file's order, the order launcher output is matched in
  std::string unknown_as;             // the library a platform whose library pico cannot name starts as
};

// The file's text read; InputError at a bad entry (an unknown key, a regex that is none or has no group,
// an unknown_as that names no entry).
MpiLibraryTable parse_mpi_libraries(const std::string& yaml_text, const std::string& file_for_messages);

// configs/mpi_libraries.yaml (installed, then the source tree's), read once.
const MpiLibraryTable& mpi_library_table();
const std::vector<MpiLibraryEntry>& mpi_libraries();
// The entry named, or null for a library pico cannot name (MpiIdentity's "unknown").
const MpiLibraryEntry* find_mpi_library(const std::string& name);
// How a launch of `name` starts: its entry, or unknown_as's for a library pico cannot name.
const MpiLibraryEntry& launched_as(const std::string& name);

}  // namespace pico
