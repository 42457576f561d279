// SPDX-License-Identifier: BSD-3-Clause
// Provenance only the worker can see: the MPI library, where each rank runs
// and is bound, each host's topology, the environment the ranks got.
#pragma once

#include <string>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "core/mpi_identity.hpp"

namespace pico {

struct MpiLibrary {
  std::string version_string;  // MPI_Get_library_version, verbatim
  std::string name;            // openmpi | mpich | unknown
  std::string version;         // "4.1.4"
  std::string mpi_standard;    // "3.1"

  MpiIdentity identity() const { return {name, version}; }
};

MpiLibrary detect_mpi_library();
// Parses the short name and version out of an MPI_Get_library_version string.
MpiLibrary parse_mpi_library(const std::string& version_string);

// Collective over comm. Host leaders export topology-<host>.xml into out_dir.
// Returns the full description on rank 0 (null elsewhere).
nlohmann::json collect_launch_info(MPI_Comm comm, const std::string& out_dir, const MpiLibrary& library);

}  // namespace pico
