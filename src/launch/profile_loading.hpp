// SPDX-License-Identifier: BSD-3-Clause
// `pico run --profile P` (or a platform's `tuning: {profile: P}`): the run
// measures the library's default with the profile loaded into the library.
// The profile is exported for the run's library into the results directory
// (openmpi: ompi-rules, or ompi-json from 6.0, and ompi-han-rules where it
// chooses han or adapt; mpich: mpich-json, and mpich-ch4-json where it
// chooses a ch4 composition: which, under which name, and the variables that
// load it are each format's ProfileLoading, export/export_format.hpp) and the
// variables that load it are set on every launch; run.json (and so the
// report's provenance.profile) records the profile's path, hash and format.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"
#include "tuning/profile.hpp"

namespace pico {

// One exported file of a profile load.
struct LoadedFile {
  std::string format;     // the export format
  std::string file_name;  // its name in the results directory
  std::string text;       // its contents
};

struct ProfileLoad {
  std::string path;       // as given
  std::string source;     // "--profile" or "platform tuning.profile"
  TunedProfile profile;
  // The library's rules file; for a profile that chooses another component
  // at some sizes (Open MPI's han or adapt, MPICH's ch4 compositions), that
  // component's file after it (han's rules, the ch4 tree).
  std::vector<LoadedFile> files;
  std::string hash;       // FNV-1a 64 of the profile file, 16 hex digits
  // Launch variables the profile sets over the catalogue's own (MPICH's ch4
  // compositions: MPIR_CVAR_DEVICE_COLLECTIVES=all, where pico measures the
  // MPIR algorithms with none; Open MPI 5's OMPI_MCA_coll=^han for a profile
  // of tuned's algorithms, as they were measured): the run puts them in
  // every launch group.
  std::map<std::string, std::string> launch_env;

  std::string formats() const;  // ompi-rules, ompi-rules + ompi-han-rules, mpich-json + mpich-ch4-json
};

// Reads and exports the profile for the run's library. InputError when the
// profile is bad, is for another library or version than the run's, or the
// plan forces algorithms of that library (a loaded Open MPI rules file
// overrides forced algorithms, so their labels would be wrong).
ProfileLoad prepare_profile_load(const std::string& path, const std::string& source, const PlanTarget& target,
                                 const Plan& plan);

// Puts the profile's launch_env in every launch group of the plan, over the
// catalogue's variables (a run's plan.json then keeps them for a resume).
void apply_launch_env(const ProfileLoad& load, Plan& plan);

// The variables that load the profile's exported files from `files` (one
// path per load.files, in order): what install_profile sets on every launch,
// and what a dry run shows with the results directory still a placeholder.
std::map<std::string, std::string> profile_variables(const ProfileLoad& load, const std::vector<std::string>& files);

// Writes the exported file into dir, records it in run["front_end"]["profile"]
// and returns the variables that load it, for every launch of the run.
std::map<std::string, std::string> install_profile(const ProfileLoad& load, const std::string& dir,
                                                   nlohmann::json& run);

// The variables that load the installed profile, from run.json (empty when
// the run loaded none): a resumed run sets them again.
std::map<std::string, std::string> profile_env(const nlohmann::json& run);

}  // namespace pico
