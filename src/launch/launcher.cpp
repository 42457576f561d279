#include "launch/launcher.hpp"

#include <unistd.h>

#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "config/error.hpp"
#include "launch/slurm_placement.hpp"

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

}  // namespace

LaunchCommand launch_command(const Platform& platform, const std::string& mpi_library, int np,
                             const std::string& worker, const std::string& launch_file, const std::string& out_dir,
                             const HostFacts& host, int nodes) {
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
    const bool open_mpi = mpi_library == "openmpi" || mpi_library == "unknown";
    if (open_mpi && launcher.allow_run_as_root && host.is_root) cmd.argv.push_back("--allow-run-as-root");
    if (open_mpi && launcher.oversubscribe && np > host.cores) cmd.argv.push_back("--oversubscribe");
    if (!launcher.cpu_bind.empty()) cmd.argv.insert(cmd.argv.end(), {"--bind-to", mpirun_binding(launcher.cpu_bind)});
  }
  cmd.argv.insert(cmd.argv.end(), launcher.args.begin(), launcher.args.end());
  cmd.argv.insert(cmd.argv.end(), {worker, "--launch", launch_file, "--out", out_dir});
  cmd.env = platform.env;
  return cmd;
}

void check_launches_fit(const Platform& platform, const std::vector<int>& process_counts) {
  if (platform.scheduler == "slurm") allocation_for(process_counts, platform.slurm);
  if (platform.launcher.kind != "direct") return;
  for (int np : process_counts)
    if (np > 1)
      throw ConfigError(platform.source_path.empty() ? platform.name : platform.source_path, 0, 0,
                        fmt::format("launcher kind direct starts one process per launch, but a launch of this "
                                    "experiment needs {}",
                                    np),
                        "run processes: [1], give the nccl backend gpus_per_process equal to processes, "
                        "or use a platform with kind: mpirun");
}

std::string worker_path(const Platform& platform, const std::string& mpi_library) {
  if (!platform.worker.empty()) return platform.worker;
  const std::string name = mpi_library == "mpich" ? "pico-worker-mpich" : "pico-worker";
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto candidate = self.parent_path() / name;
    if (std::filesystem::exists(candidate)) return candidate.string();
  }
  return name;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + shell_quote(a);
  return out;
}

}  // namespace pico
