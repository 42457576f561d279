// SPDX-License-Identifier: BSD-3-Clause
#include "core/mpi_identity.hpp"

#include <fmt/format.h>

namespace pico {

nlohmann::json to_json(const MpiIdentity& id) { return {{"library", id.library}, {"version", id.version}}; }

MpiIdentity mpi_identity_from_json(const nlohmann::json& j) {
  return {j.at("library").get<std::string>(), j.at("version").get<std::string>()};
}

std::string describe(const MpiIdentity& id) {
  if (id.library == "unknown") return id.library;
  return fmt::format("{} {}", id.library, id.version.empty() ? "(version unknown)" : id.version);
}

std::string mpi_library_mismatch(const MpiIdentity& planned, const MpiIdentity& running) {
  if (planned.library == "unknown" || running.library == "unknown" || planned.library == running.library) return "";
  return fmt::format(
      "MPI library mismatch: the run was planned for {}, but the worker runs {} (MPI_Get_library_version); nothing "
      "was measured, since the catalogue, launch environment and worker were chosen for {}. Make the platform's "
      "mpi library, launcher and worker agree",
      describe(planned), describe(running), planned.library);
}

}  // namespace pico
