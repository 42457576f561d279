// SPDX-License-Identifier: BSD-3-Clause
#include "launch/launcher.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "config/backends.hpp"
#include "config/mpi_libraries.hpp"
#include "core/case.hpp"
#include "launch/slurm_placement.hpp"
#include "support/executable_search.hpp"
#include "support/input_error.hpp"

namespace pico {

HostFacts this_host() {
  HostFacts h;
  h.is_root = ::geteuid() == 0;
  h.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return h;
}

namespace {

// The platform's binding vocabulary (that of srun) in mpirun's words.
std::string mpirun_binding(const std::string& cpu_bind) {
  if (cpu_bind == "cores") return "core";
  if (cpu_bind == "threads") return "hwthread";
  if (cpu_bind == "sockets") return "socket";
  return cpu_bind;
}

// The file a platform came from, for errors about the platform as a whole.
std::string platform_file(const Platform& platform) {
  return platform.source_path.empty() ? platform.name : platform.source_path;
}

// A bare name is looked up on PATH, as execvpe will when the launch starts.
bool found_on_path(const std::string& name) {
  for (const std::string& dir : path_entries())
    // An empty PATH entry means the current directory.
    if (is_executable_file(std::filesystem::path(dir.empty() ? "." : dir) / name)) return true;
  return false;
}

bool command_resolves(const std::string& command) {
  if (command.find('/') != std::string::npos) return is_executable_file(command);
  return found_on_path(command);
}

// A launcher that cannot start fails every case with exit 127 only once the
// run is under way; here it is bad input before anything runs.
void check_launcher_found(const Platform& platform) {
  // Under Slurm the launcher runs on the allocation's first node, whose PATH
  // (after the job's module loads) this login node cannot see: not checked.
  if (platform.scheduler == "slurm") return;
  // A direct launch starts the worker itself; the command is only asked --version.
  if (platform.launcher.kind == "direct") return;
  const std::string& command = platform.launcher.command;
  if (command_resolves(command)) return;
  throw InputError(platform_file(platform), 0, 0,
                    command.find('/') != std::string::npos
                        ? fmt::format("launcher command '{}' is not an executable file", command)
                        : fmt::format("launcher command '{}' is not found on PATH", command),
                    "install MPI or load its module, or set launcher: {command: /path/to/mpirun} in the platform");
}

// Far more processes than cores is a slip (--np 100000) rather than a plan:
// pico adds --oversubscribe itself, so nothing else would stop the launch
// from swamping this host.
constexpr int kProcessesPerCore = 64;

int local_process_limit(const Platform& platform, const HostFacts& host) {
  return platform.launcher.max_processes > 0 ? platform.launcher.max_processes : kProcessesPerCore * host.cores;
}

// Where the limit comes from, for the error that quotes it.
std::string local_limit_text(const Platform& platform, const HostFacts& host) {
  if (platform.launcher.max_processes > 0) return fmt::format("max_processes: {}", platform.launcher.max_processes);
  return fmt::format("{} = {} x its {} cores", local_process_limit(platform, host), kProcessesPerCore, host.cores);
}

void check_local_process_counts(const Platform& platform, const std::vector<int>& process_counts,
                                const HostFacts& host) {
  if (platform.scheduler == "slurm") return;  // the allocation bounds each launch
  for (int np : process_counts)
    if (np > local_process_limit(platform, host))
      throw InputError(platform_file(platform), 0, 0,
                        fmt::format("a launch of {} processes is more than this platform starts on this host ({})",
                                    np, local_limit_text(platform, host)),
                        "lower processes (or --np), or set launcher: {max_processes: N} in the platform to allow it");
}

// The backends that run several GPUs per process (their descriptors take gpus_per_process): nccl.
std::string gpu_process_backends() {
  std::string names;
  for (const BackendDescriptor& b : known_backends())
    if (std::find(b.options.keys.begin(), b.options.keys.end(), kGpusPerProcess) != b.options.keys.end())
      names += (names.empty() ? "" : " or ") + b.name;
  return names;
}

}  // namespace

LaunchCommand launch_command(const Platform& platform, const std::string& mpi_library, int np,
                             const std::string& worker, const std::string& launch_file, const std::string& out_dir,
                             const HostFacts& host, int nodes) {
  LaunchCommand cmd = launcher_prefix(platform, mpi_library, np, host, nodes);
  cmd.argv.insert(cmd.argv.end(), {worker, "--launch", launch_file, "--out", out_dir});
  return cmd;
}

LaunchCommand launcher_prefix(const Platform& platform, const std::string& mpi_library, int np, const HostFacts& host,
                              int nodes) {
  LaunchCommand cmd;
  cmd.argv = platform.launcher.wrapper;
  const auto& launcher = platform.launcher;
  if (launcher.kind == "direct") {
    // No launcher: MPI_Init makes the worker a singleton.
  } else if (launcher.kind == "srun") {
    // A crashed rank ends the step at once instead of leaving the others blocked in a collective.
    cmd.argv.insert(cmd.argv.end(), {launcher.command, fmt::format("--nodes={}", std::max(nodes, 1)),
                                     fmt::format("--ntasks={}", np), "--kill-on-bad-exit=1"});
    if (!launcher.cpu_bind.empty()) cmd.argv.push_back("--cpu-bind=" + launcher.cpu_bind);
  } else {
    cmd.argv.insert(cmd.argv.end(), {launcher.command, "-np", std::to_string(np)});
    // The library's own flags (configs/mpi_libraries.yaml): Open MPI's; MPICH's Hydra needs none.
    const MpiLibraryEntry& library = launched_as(mpi_library);
    if (!library.run_as_root_flag.empty() && launcher.allow_run_as_root && host.is_root)
      cmd.argv.push_back(library.run_as_root_flag);
    if (!library.oversubscribe_flag.empty() && launcher.oversubscribe && np > host.cores)
      cmd.argv.push_back(library.oversubscribe_flag);
    if (!launcher.cpu_bind.empty()) cmd.argv.insert(cmd.argv.end(), {"--bind-to", mpirun_binding(launcher.cpu_bind)});
  }
  cmd.argv.insert(cmd.argv.end(), launcher.args.begin(), launcher.args.end());
  cmd.env = platform.env;
  return cmd;
}

void check_launches_fit(const Platform& platform, const std::vector<int>& process_counts, const HostFacts& host) {
  check_launcher_found(platform);
  check_local_process_counts(platform, process_counts, host);
  if (platform.scheduler == "slurm") allocation_for(process_counts, platform.slurm);
  if (platform.launcher.kind != "direct") return;
  for (int np : process_counts)
    if (np > 1)
      throw InputError(platform_file(platform), 0, 0,
                        fmt::format("launcher kind direct starts one process per launch, but a launch of this "
                                    "experiment needs {}",
                                    np),
                        fmt::format("run processes: [1], give the {} backend {} equal to processes, or use a "
                                    "platform with kind: mpirun",
                                    gpu_process_backends(), kGpusPerProcess));
}

std::string worker_path(const Platform& platform, const std::string& mpi_library) {
  // A path is the user's; a bare name (pico-worker-openmpi5, built by -DPICO_EXTRA_MPI) is one of pico's
  // workers, looked for beside pico like the default ones, never on PATH.
  if (!platform.worker.empty() && platform.worker.find('/') != std::string::npos) return platform.worker;
  const bool named = !platform.worker.empty();
  const MpiLibraryEntry& library = launched_as(mpi_library);
  const std::string name = named ? platform.worker : library.worker;
  const std::filesystem::path dir = this_program_dir();
  if (!dir.empty() && is_executable_file(dir / name)) return (dir / name).string();
  // The bare name would make mpirun search PATH: whatever program of that name is found there would run as the
  // worker, and each case would fail after it.
  throw InputError(platform_file(platform), 0, 0,
                   fmt::format("no {} beside pico ({}) for {}: pico runs the worker built with it, never one found on "
                               "PATH",
                               name, dir.empty() ? std::string("its directory unreadable") : dir.string(), mpi_library),
                   named ? "build it (cmake -DPICO_EXTRA_MPI=NAME=PREFIX, docs/openmpi5.md), see which workers pico has "
                           "(pico list libraries), or give `worker:` a path"
                         : library.worker_build + ", or give the platform's `worker:` its path");
}

}  // namespace pico
