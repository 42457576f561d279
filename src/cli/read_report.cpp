// SPDX-License-Identifier: BSD-3-Clause
#include "cli/read_report.hpp"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "core/oversubscription.hpp"
#include "core/placement_mismatch.hpp"
#include "launch/application_report_check.hpp"
#include "launch/application_run.hpp"
#include "support/wrapped_text.hpp"
#include "tuning/default_ran_check.hpp"

namespace pico::cli {

void warn_about(const nlohmann::json& report, const std::string& where) {
  if (const std::string text = report_oversubscription_text(report); !text.empty())
    std::fputs(warning_text(where + ": " + text).c_str(), stderr);
  if (const std::string text = report_placement_mismatch_text(report); !text.empty())
    std::fputs(warning_text(where + ": " + text).c_str(), stderr);
}

nlohmann::json read_report(const std::string& dir_or_file, std::uintmax_t max_bytes) {
  nlohmann::json report = load_report(dir_or_file, max_bytes);
  warn_about(report, dir_or_file);
  return report;
}

namespace {

// The results directory a path names: itself, or the directory of the report.json given.
std::string run_dir_of(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  return (std::filesystem::is_directory(p, ec) ? p : p.parent_path()).string();
}

}  // namespace

std::optional<nlohmann::json> application_report_at(const std::string& path) {
  const std::string dir = run_dir_of(path);
  if (!is_application_run(dir)) return std::nullopt;
  const std::filesystem::path file = std::filesystem::path(dir) / "report.json";
  nlohmann::json report = read_json_file(file,
                                         "an application run writes report.json when its launches end; "
                                         "pico run --resume DIR finishes one that stopped");
  // Untrusted as every results file: each field the views and tune read, checked once here.
  check_application_report(report, file.string());
  return report;
}

std::optional<nlohmann::json> application_report_of(const std::vector<std::string>& paths) {
  if (paths.empty() || !is_application_run(run_dir_of(paths.front()))) return std::nullopt;
  if (paths.size() == 1) return application_report_at(paths.front());
  std::vector<std::string> dirs;
  for (const std::string& path : paths) {
    if (!is_application_run(run_dir_of(path)))
      throw InputError(path, "is no application run, and the first report given is one",
                       "give runs of one application experiment, whose rounds are pooled, or one report at a time");
    dirs.push_back(run_dir_of(path));
  }
  return pooled_application_report(dirs);
}

TunedProfile read_profile(const std::string& path, std::string* text) {
  TunedProfile profile = load_profile(path, text);
  // What predict, replay and the simulator exports stand for "default": a name the library has.
  check_default_ran(profile, path);
  for (const std::string& w : profile.warnings) std::fputs(warning_text(path + ": " + w).c_str(), stderr);
  return profile;
}

}  // namespace pico::cli
