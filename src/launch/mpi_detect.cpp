#include "launch/mpi_detect.hpp"

#include <cstdio>
#include <memory>
#include <regex>

#include "launch/launcher.hpp"

namespace pico {

PlanTarget parse_launcher_version(const std::string& output) {
  PlanTarget t;
  std::smatch m;
  if (std::regex_search(output, m, std::regex(R"(\(Open MPI\)\s+(\d+(\.\d+)*))"))) {
    t.mpi_library = "openmpi";
    t.mpi_version = m[1];
  } else if (std::regex_search(output, m, std::regex(R"(HYDRA build details:[\s\S]*?Version:\s+(\d+(\.\d+)*))"))) {
    t.mpi_library = "mpich";
    t.mpi_version = m[1];
  }
  return t;
}

PlanTarget plan_target_for(const Platform& platform) {
  if (platform.mpi.library != "auto" && !platform.mpi.version.empty())
    return {platform.mpi.library, platform.mpi.version};
  const std::string command = shell_quote(platform.launcher.command) + " --version 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) return {};
  std::string output;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof(buf), pipe.get())) > 0;) output.append(buf, n);
  const PlanTarget detected = parse_launcher_version(output);
  if (platform.mpi.library == "auto") return detected;
  // A named library takes the launcher's version only if the launcher is that library.
  return {platform.mpi.library, detected.mpi_library == platform.mpi.library ? detected.mpi_version : ""};
}

}  // namespace pico
