// SPDX-License-Identifier: BSD-3-Clause
// Loads the Open MPI interposer into pico-worker (docs/verification.md): the
// worker re-executes itself once, before MPI_Init, with the interposer that
// sits next to it added to LD_PRELOAD. Doing it here rather than in the
// launcher keeps it out of mpirun/srun themselves and reaches every rank on
// every node, whatever launcher, wrapper or Slurm script started it.
#pragma once

#include <string>

namespace pico {

// Returns only when no re-execution happened: "" when the interposer is
// loaded, else why it is not (PICO_INTERPOSER=off, no file next to the
// worker, the re-executed process still without it). `file` is the
// interposer's file name, looked for in the worker's directory.
std::string preload_interposer(char** argv, const std::string& file);

}  // namespace pico
