// SPDX-License-Identifier: BSD-3-Clause
#include "launch/mpi_detect.hpp"

#include <cstdio>
#include <memory>
#include <filesystem>
#include <regex>

#include "config/emulated_cluster.hpp"
#include "config/mpi_libraries.hpp"
#include "launch/launcher.hpp"
#include "support/shell_words.hpp"

namespace pico {
namespace fs = std::filesystem;

MpiIdentity parse_launcher_version(const std::string& output) {
  std::smatch m;
  for (const MpiLibraryEntry& library : mpi_libraries())
    if (std::regex_search(output, m, std::regex(library.launcher_version))) return {library.name, m[1]};
  return {};
}

namespace {

// Where the platform puts a launch's ranks: its own `placement`, an emulated
// cluster's slots per node (its description, when the cluster is up; a run
// refuses to start otherwise), a Slurm partition's ntasks_per_node, else one node.
RankPlacement placement_of(const Platform& platform) {
  if (platform.placement) return *platform.placement;
  if (!platform.emulated.empty() && fs::exists(platform.emulated))
    return {read_emulated_cluster(platform.emulated).ppn, RankPlacement::Fill::node_after_node,
            "the emulated cluster's slots per node (" + platform.emulated + ")"};
  if (platform.scheduler == "slurm")  // srun --nodes=ceil(np / ntasks_per_node) --ntasks=np spreads them evenly
    return {platform.slurm.ntasks_per_node, RankPlacement::Fill::evenly, "the platform's slurm ntasks_per_node"};
  return {};
}

// The platform's mpi setting, or what its launcher says.
PlanTarget detected_target(const Platform& platform) {
  if (platform.mpi.library != "auto" && !platform.mpi.version.empty())
    return {platform.mpi.library, platform.mpi.version};
  const std::string command = shell_quote(platform.launcher.command) + " --version 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) return {};
  std::string output;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof(buf), pipe.get())) > 0;) output.append(buf, n);
  PlanTarget target;
  target.launcher_says = parse_launcher_version(output);
  const MpiIdentity& detected = *target.launcher_says;
  if (platform.mpi.library == "auto") {
    target.mpi_library = detected.library;
    target.mpi_version = detected.version;
  } else {
    // A named library takes the launcher's version only if the launcher is that library.
    target.mpi_library = platform.mpi.library;
    if (detected.library == platform.mpi.library) target.mpi_version = detected.version;
  }
  return target;
}

}  // namespace

PlanTarget plan_target_for(const Platform& platform) {
  PlanTarget target = detected_target(platform);
  target.placement = placement_of(platform);
  return target;
}


}  // namespace pico
