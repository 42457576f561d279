// SPDX-License-Identifier: BSD-3-Clause
// Which MPI library a platform's launcher starts, known before anything runs,
// so the plan can use that library's algorithm catalogue.
#pragma once

#include <string>

#include "config/platform.hpp"
#include "core/mpi_identity.hpp"
#include "plan/plan.hpp"

namespace pico {

// "mpirun (Open MPI) 4.1.4" -> openmpi 4.1.4; MPICH's Hydra "Version: 4.0.2" -> mpich 4.0.2: the first
// library whose launcher_version matches (configs/mpi_libraries.yaml), else unknown.
MpiIdentity parse_launcher_version(const std::string& output);

// The platform's mpi setting; for `auto`, or a library named without a
// version, what `<launcher> --version` prints fills the gap (and is kept in
// launcher_says for the report).
PlanTarget plan_target_for(const Platform& platform);

}  // namespace pico
