#include "launch/launcher.hpp"

#include <unistd.h>

#include <filesystem>
#include <thread>

namespace pico {

HostFacts this_host() {
  HostFacts h;
  h.is_root = ::geteuid() == 0;
  h.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return h;
}

LaunchCommand launch_command(const Platform& platform, const std::string& mpi_library, int np,
                             const std::string& worker, const std::string& launch_file, const std::string& out_dir,
                             const HostFacts& host) {
  LaunchCommand cmd;
  cmd.argv = platform.launcher.wrapper;
  cmd.argv.insert(cmd.argv.end(), {platform.launcher.command, "-np", std::to_string(np)});
  const bool open_mpi = mpi_library == "openmpi" || mpi_library == "unknown";
  if (open_mpi && platform.launcher.allow_run_as_root && host.is_root) cmd.argv.push_back("--allow-run-as-root");
  if (open_mpi && platform.launcher.oversubscribe && np > host.cores) cmd.argv.push_back("--oversubscribe");
  cmd.argv.insert(cmd.argv.end(), platform.launcher.args.begin(), platform.launcher.args.end());
  cmd.argv.insert(cmd.argv.end(), {worker, "--launch", launch_file, "--out", out_dir});
  cmd.env = platform.env;
  return cmd;
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
