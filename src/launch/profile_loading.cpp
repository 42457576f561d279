// SPDX-License-Identifier: BSD-3-Clause
#include "launch/profile_loading.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "core/results_file.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_han_rules.hpp"
#include "tuning/profile_hash.hpp"

namespace fs = std::filesystem;

namespace pico {

namespace {

// The export each library loads at launch, and the variables that load it:
// `switches` as they are, `file_variable` set to the exported file's path.
struct LibraryLoading {
  std::string format;
  std::string file_name;
  std::string file_variable;
  std::map<std::string, std::string> switches;
  // Where the profile chooses another component: its file, exported after the
  // first (Open MPI: han's rules; MPICH: the ch4 tree); "" where it chooses none.
  std::string component_format;
  std::string component_file;
  // Launch variables the component's file needs over the catalogue's own (ProfileLoad::launch_env).
  std::map<std::string, std::string> launch_env;
};

// How MPICH loads a ch4 tree: the catalogue's composition components all set
// the same variable (the file) and the same launch variables.
const ComponentSelection& ch4_selection() { return catalog_for("mpich").components.at("ch4_alpha"); }

// Open MPI's MCA variables as a launch's environment.
std::map<std::string, std::string> mca_env(const std::map<std::string, std::string>& variables) {
  std::map<std::string, std::string> env;
  for (const auto& [variable, value] : variables) env["OMPI_MCA_" + variable] = value;
  return env;
}

// The variables that load the component's file at `file`: han's (its priority,
// rules and the chosen variants' variables), or the ch4 tree's.
std::map<std::string, std::string> component_variables(const TunedProfile& profile, const std::string& file) {
  if (profile.library.name == "openmpi") return mca_env(han_rules_variables(profile, file));
  std::map<std::string, std::string> env = ch4_selection().env;
  env[ch4_selection().variable] = file;
  return env;
}

LibraryLoading loading_for(const TunedProfile& profile, const std::string& path) {
  if (profile.library.name == "openmpi") {
    const std::map<std::string, std::string> switches{{"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}};
    const char* file_variable = "OMPI_MCA_coll_tuned_dynamic_rules_filename";
    const bool han = chooses_component(profile);
    if (!profile.library.version.empty() && version_in_range(profile.library.version, ">=6.0"))
      return {"ompi-json", "tuned-rules.json", file_variable, switches, han ? "ompi-han-rules" : "", "han-rules.txt",
              mca_env(han_excluded_variables(profile))};
    return {"ompi-rules", "tuned-rules.txt", file_variable, switches, han ? "ompi-han-rules" : "", "han-rules.txt",
            mca_env(han_excluded_variables(profile))};
  }
  if (profile.library.name == "mpich") {
    if (!chooses_component(profile))
      return {"mpich-json", "tuned-selection.json", "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", {}, "", "", {}};
    return {"mpich-json",     "tuned-selection.json", "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", {},
            "mpich-ch4-json", "ch4-selection.json",   ch4_selection().env};
  }
  throw InputError(path, fmt::format("pico run loads profiles into Open MPI and MPICH; this one is for {}",
                                     profile.library.name),
                   fmt::format("export it yourself: pico export {} --format ...", path));
}

}  // namespace

ProfileLoad prepare_profile_load(const std::string& path, const std::string& source, const PlanTarget& target,
                                 const Plan& plan) {
  ProfileLoad load;
  load.path = path;
  load.source = source;
  std::string text;
  load.profile = load_profile(path, &text);
  load.hash = profile_file_hash(text);
  const ProfileLibrary& lib = load.profile.library;
  if (lib.name != target.mpi_library)
    throw InputError(path, fmt::format("the profile is for {} {}, but the run is planned for {} {}", lib.name,
                                       lib.version, target.mpi_library, target.mpi_version),
                     "load a profile tuned on the library the platform runs");
  if (!lib.version.empty() && !target.mpi_version.empty() && lib.version != target.mpi_version)
    throw InputError(path, fmt::format("the profile is for {} {}, but the run is planned for {} {}", lib.name,
                                       lib.version, target.mpi_library, target.mpi_version),
                     "algorithm ids differ between versions: tune on the version you run");
  for (const Case& c : plan.cases)
    if (c.backend == lib.backend && c.algorithm != "default")
      throw InputError(source, fmt::format("the experiment forces {} {} (case {}), but a run with a profile "
                                           "measures the library's default with the profile loaded",
                                           name(c.collective), c.algorithm, c.case_id),
                       "run only `default` for the library (algorithms: [default]); a loaded Open MPI rules file "
                       "overrides forced algorithms");
  const LibraryLoading how = loading_for(load.profile, path);
  // The library formats pico loads are single files that need no flag.
  const auto exported = [&](const std::string& format) {
    return export_profile(load.profile, path, export_format(format), FormatArgs{}).files.front().second;
  };
  load.files.push_back({how.format, how.file_name, exported(how.format)});
  if (!how.component_format.empty())
    load.files.push_back({how.component_format, how.component_file, exported(how.component_format)});
  load.launch_env = how.launch_env;
  return load;
}

void apply_launch_env(const ProfileLoad& load, Plan& plan) {
  for (LaunchGroup& g : plan.groups)
    for (const auto& [k, v] : load.launch_env) g.env[k] = v;
}

std::string ProfileLoad::formats() const {
  std::string out;
  for (const LoadedFile& f : files) out += (out.empty() ? "" : " + ") + f.format;
  return out;
}

std::map<std::string, std::string> profile_variables(const ProfileLoad& load, const std::vector<std::string>& files) {
  const LibraryLoading how = loading_for(load.profile, load.path);
  std::map<std::string, std::string> env = how.switches;
  env[how.file_variable] = files.front();
  if (!how.component_format.empty())  // han's rules (read where han's priority puts it above tuned), ch4's tree
    for (const auto& [variable, value] : component_variables(load.profile, files.back())) env[variable] = value;
  return env;
}

std::map<std::string, std::string> install_profile(const ProfileLoad& load, const std::string& dir,
                                                   nlohmann::json& run) {
  std::vector<std::string> files;
  for (const LoadedFile& f : load.files) {
    files.push_back(fs::absolute(fs::path(dir) / f.file_name).string());
    write_results_file(files.back(), f.text);
  }
  const std::string file = files.front();
  const std::map<std::string, std::string> env = profile_variables(load, files);
  run["front_end"]["profile"] = {{"path", fs::absolute(load.path).string()},
                                 {"source", load.source},
                                 {"hash", load.hash},
                                 {"library", load.profile.library.name},
                                 {"version", load.profile.library.version},
                                 {"format", load.formats()},
                                 {"file", file},
                                 {"files", files},
                                 {"env", env}};
  return env;
}

std::map<std::string, std::string> profile_env(const nlohmann::json& run) {
  std::map<std::string, std::string> env;
  if (!run.contains("front_end") || !run["front_end"].contains("profile")) return env;
  for (const auto& [k, v] : run["front_end"]["profile"].at("env").items()) env[k] = v.get<std::string>();
  return env;
}

}  // namespace pico
