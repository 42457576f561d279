// SPDX-License-Identifier: BSD-3-Clause
#include "cli/read_report.hpp"

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "core/oversubscription.hpp"

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

TunedProfile read_profile(const std::string& path) {
  TunedProfile profile = load_profile(path);
  for (const std::string& w : profile.warnings) fmt::print(stderr, "pico: warning: {}: {}\n", path, w);
  return profile;
}

}  // namespace pico::cli
