// SPDX-License-Identifier: BSD-3-Clause
// The workers built beside pico (pico-worker, pico-worker-mpich, one per
// further MPI installation: docs/openmpi5.md) and the MPI library each was
// linked against, as the worker itself says (`pico-worker --version`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pico {

struct WorkerFound {
  std::string name;            // pico-worker, pico-worker-mpich, pico-worker-openmpi5
  std::filesystem::path path;
  std::string mpi;             // Open MPI v5.0.7, MPICH Version: 4.0.2; empty when `failure` says why
  std::string failure;         // why the worker could not say (it did not run, printed no MPI line)
};

// Every executable pico-worker* in `dir` (default: the running program's directory), by name.
std::vector<WorkerFound> workers_beside_pico(const std::filesystem::path& dir = {});

}  // namespace pico
