// SPDX-License-Identifier: BSD-3-Clause
// The exact command that starts one launch of the worker on a platform.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/platform.hpp"

namespace pico {

struct LaunchCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to the launcher's environment
};

struct HostFacts {
  bool is_root = false;
  int cores = 1;
};
HostFacts this_host();

// mpirun -np N [--allow-run-as-root] [--oversubscribe] [--bind-to B] ARGS... WORKER --launch FILE --out DIR
// The two flags are the library's own (configs/mpi_libraries.yaml): Open MPI's; MPICH's Hydra needs neither.
// Inside a Slurm allocation with launcher kind srun:
// srun --nodes=NODES --ntasks=N --kill-on-bad-exit=1 [--cpu-bind=B] ARGS... WORKER --launch FILE --out DIR
// With kind direct (N = 1): ARGS... WORKER --launch FILE --out DIR, the worker an MPI singleton.
LaunchCommand launch_command(const Platform& platform, const std::string& mpi_library, int np,
                             const std::string& worker, const std::string& launch_file, const std::string& out_dir,
                             const HostFacts& host, int nodes = 1);

// launch_command without the program and its arguments: what starts any MPI
// program of np processes on the platform (an application experiment's).
LaunchCommand launcher_prefix(const Platform& platform, const std::string& mpi_library, int np, const HostFacts& host,
                              int nodes = 1);

// Bad input (InputError, exit 2) before anything starts, where the platform
// cannot start a launch of these process counts: a local launcher command
// that is neither an executable file nor on PATH, a Slurm allocation too
// small for one, a direct launch (one process) asked for more, or a local
// launch of more processes than the platform's max_processes (by default 64
// x the host's cores).
void check_launches_fit(const Platform& platform, const std::vector<int>& process_counts,
                        const HostFacts& host = this_host());

// The platform's worker path, or the worker built for the library next to
// the running pico executable (its `worker` in configs/mpi_libraries.yaml:
// pico-worker for Open MPI, pico-worker-mpich).
std::string worker_path(const Platform& platform, const std::string& mpi_library);

}  // namespace pico
