// SPDX-License-Identifier: BSD-3-Clause
// A platform: where and how the worker is launched. Site-specific, kept apart
// from experiments so the same experiment runs anywhere.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <optional>

#include "config/slurm_spec.hpp"
#include "core/rank_placement.hpp"

namespace pico {

struct LauncherSpec {
  std::string kind = "mpirun";          // mpirun | srun (srun only inside a Slurm allocation) | direct (one process, no launcher)
  std::string command = "mpirun";       // executable to run (direct: only asked `--version`, for the MPI library)
  std::vector<std::string> wrapper;     // runs the launcher, e.g. [ip, netns, exec, pico-net]
  std::vector<std::string> args;        // extra arguments placed before the worker
  bool allow_run_as_root = true;        // add --allow-run-as-root when pico runs as root
  bool oversubscribe = true;            // add --oversubscribe when ranks exceed local cores
  std::string cpu_bind;                 // "" (launcher default) | none | cores | threads | sockets
  int max_processes = 0;                // local: most processes in one launch; 0 = 64 x this host's cores
};

// Which MPI the launcher starts. "auto" asks the launcher (mpirun --version)
// when a run is planned; a cluster platform names it, since srun cannot tell.
struct MpiSpec {
  std::string library = "auto";  // auto | openmpi | mpich
  std::string version;           // "" = detect (auto) or any
};

struct Platform {
  std::string name;
  std::string description;
  std::string scheduler = "local";  // local | slurm
  SlurmSpec slurm;                  // read when scheduler is slurm
  LauncherSpec launcher;
  std::map<std::string, std::string> env;  // set in the worker's environment
  std::string worker;                      // path to the worker; "" = the one built for `mpi`, next to pico
  MpiSpec mpi;
  // An emulated cluster's description (scripts/emulated-cluster.sh writes it):
  // read when a run starts and recorded in the report; "" = a real platform.
  std::string emulated;
  // Where a launch's ranks go (`placement: {ranks_per_node, fill}`), for a
  // platform whose launcher spreads them over hosts pico cannot see (an
  // mpirun hostfile); unset: the emulated cluster's slots, Slurm's
  // ntasks_per_node, else one node (docs/platforms.md#rank-placement).
  std::optional<RankPlacement> placement;
  // A tuned profile (pico tune) every run on this platform loads into the
  // library, as `pico run --profile` does; "" = none. Relative to the platform file.
  std::string tuning_profile;

  std::string source_path;
  std::string source_text;
};

// The keys a platform file, its `launcher` and its `mpi` map take, as the parser
// checks them: docs/configuration.md's tables must name exactly these
// (tests/unit/config/test_keys_documented.cpp).
const std::vector<std::string>& platform_keys();
const std::vector<std::string>& launcher_keys();
const std::vector<std::string>& platform_mpi_keys();

Platform parse_platform(const std::string& yaml_text, const std::string& file_for_messages);
Platform load_platform(const std::string& path);
// A name ("local") is looked up as platforms/<name>.yaml under the current
// directory, then under the source tree pico was built from; "local" falls back to the copy
// embedded in the binary. Anything containing '/' or ending in .yaml is a path.
Platform resolve_platform(const std::string& name_or_path);

// The platforms a name finds: platforms/*.yaml of the first directory
// resolve_platform looks in that has one, sorted by name. `pico list
// platforms` prints them; an unknown name's hint suggests the nearest.
struct KnownPlatform {
  std::string name;
  std::string path;
};
std::vector<KnownPlatform> known_platforms();

}  // namespace pico
