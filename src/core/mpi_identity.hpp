// SPDX-License-Identifier: BSD-3-Clause
// Which MPI library, as the front end plans for it (the platform's `mpi`
// setting or `<launcher> --version`) and as the worker meets it
// (MPI_Get_library_version). The plan's catalogue, launch environment and
// worker executable are chosen for the planned library, so a worker that
// meets another one measures nothing under those labels.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

struct MpiIdentity {
  std::string library = "unknown";  // openmpi | mpich | unknown
  std::string version;              // "4.1.4"; "" when unknown

  bool operator==(const MpiIdentity&) const = default;
};

// {"library": ..., "version": ...}, as run.mpi_target and launch-<k>.json have it.
nlohmann::json to_json(const MpiIdentity& id);
// Inverse of to_json; throws nlohmann::json::exception on a malformed object.
MpiIdentity mpi_identity_from_json(const nlohmann::json& j);
// "openmpi 4.1.4", "mpich (version unknown)", "unknown".
std::string describe(const MpiIdentity& id);

// Why cases planned for `planned` must not run on a worker that meets
// `running`, or "" when nothing contradicts the plan: the same library, or
// either one unknown (nothing to check; an MPICH derivative pico cannot name
// may be planned as mpich on purpose). Versions are recorded, not compared:
// a platform may name a version more loosely than the library reports it.
std::string mpi_library_mismatch(const MpiIdentity& planned, const MpiIdentity& running);

}  // namespace pico
