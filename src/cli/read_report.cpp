// SPDX-License-Identifier: BSD-3-Clause
#include "cli/read_report.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "core/oversubscription.hpp"
#include "launch/application_run.hpp"
#include "tuning/default_ran_check.hpp"

namespace pico::cli {

void warn_about(const nlohmann::json& report, const std::string& where) {
  if (const std::string text = report_oversubscription_text(report); !text.empty())
    fmt::print(stderr, "pico: warning: {}: {}\n", where, text);
}

nlohmann::json read_report(const std::string& dir_or_file, std::uintmax_t max_bytes) {
  nlohmann::json report = load_report(dir_or_file, max_bytes);
  warn_about(report, dir_or_file);
  return report;
}

std::optional<nlohmann::json> application_report_at(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  const std::filesystem::path dir = std::filesystem::is_directory(p, ec) ? p : p.parent_path();
  if (!is_application_run(dir.string())) return std::nullopt;
  return read_json_file(dir / "report.json", "an application run writes report.json when its launches end; "
                                             "pico run --resume DIR finishes one that stopped");
}

TunedProfile read_profile(const std::string& path, std::string* text) {
  TunedProfile profile = load_profile(path, text);
  // What predict, replay and the simulator exports stand for "default": a name the library has.
  check_default_ran(profile, path);
  for (const std::string& w : profile.warnings) fmt::print(stderr, "pico: warning: {}: {}\n", path, w);
  return profile;
}

}  // namespace pico::cli
