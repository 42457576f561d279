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
// The two flags are Open MPI's; other libraries run as root and oversubscribe without them.
// Inside a Slurm allocation with launcher kind srun:
// srun --nodes=NODES --ntasks=N --kill-on-bad-exit=1 [--cpu-bind=B] ARGS... WORKER --launch FILE --out DIR
LaunchCommand launch_command(const Platform& platform, const std::string& mpi_library, int np,
                             const std::string& worker, const std::string& launch_file, const std::string& out_dir,
                             const HostFacts& host, int nodes = 1);

// The platform's worker path, or the worker built for the library next to
// the running pico executable (pico-worker for Open MPI, pico-worker-mpich).
std::string worker_path(const Platform& platform, const std::string& mpi_library);

std::string shell_quote(const std::string& s);
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace pico
