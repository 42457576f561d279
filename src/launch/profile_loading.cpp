// SPDX-License-Identifier: BSD-3-Clause
#include "launch/profile_loading.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "export/export_format.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/results_file.hpp"
#include "tuning/profile_hash.hpp"

namespace fs = std::filesystem;

namespace pico {

namespace {

// The libraries pico run loads a profile into, those of the formats that say how: openmpi and mpich.
std::string loading_libraries() {
  std::vector<std::string_view> libraries;
  for (const ExportFormat* f : export_formats())
    if (f->loading && std::find(libraries.begin(), libraries.end(), f->library) == libraries.end())
      libraries.push_back(f->library);
  std::string out;
  for (std::size_t i = 0; i < libraries.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == libraries.size() ? " and " : ", ", libraries[i]);
  return out;
}

// The formats the profile loads through (export/export_format.hpp: each
// format's ProfileLoading says its versions, file and variables), or
// InputError where pico run loads no format of its library.
std::vector<const ExportFormat*> formats_for(const TunedProfile& profile, const std::string& path) {
  std::vector<const ExportFormat*> formats = loading_formats(profile);
  if (formats.empty())
    throw InputError(path, fmt::format("pico run loads profiles into {}; this one is for {}", loading_libraries(),
                                       profile.library.name),
                     fmt::format("export it yourself: pico export {} --format ...", path));
  return formats;
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
                       "run only `default` for the library (algorithms: [default]); a loaded profile can override "
                       "a forced algorithm, whose label would then be wrong");
  // The library formats pico loads are single files that need no flag.
  for (const ExportFormat* format : formats_for(load.profile, path)) {
    load.files.push_back({std::string(format->name), std::string(format->loading->file_name),
                          export_profile(load.profile, path, *format, FormatArgs{}).files.front().second});
    if (format->loading->launch_env)
      for (const auto& [k, v] : format->loading->launch_env(load.profile)) load.launch_env[k] = v;
  }
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
  // Each file's variables, a later file's over an earlier's: han's rules (read where han's priority puts it
  // above tuned) or ch4's tree after the library's rules.
  std::map<std::string, std::string> env;
  for (std::size_t i = 0; i < load.files.size(); ++i)
    for (const auto& [variable, value] : export_format(load.files[i].format).loading->variables(load.profile, files.at(i)))
      env[variable] = value;
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
