// SPDX-License-Identifier: BSD-3-Clause
// A report as every verb that reads one reads it: checked (load_report), and
// with what makes its numbers doubtful said on stderr, so that tune, compare,
// fit, predict --check and report never pass such numbers on without a word.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/json_file.hpp"
#include "tuning/profile.hpp"

namespace pico::cli {

// "pico: warning: WHERE: oversubscribed (...)" on stderr where the report's ranks outnumbered a host's cores,
// and "pico: warning: WHERE: the platform's placement is not where the ranks ran (...)" where they ran elsewhere.
void warn_about(const nlohmann::json& report, const std::string& where);

nlohmann::json read_report(const std::string& dir_or_file, std::uintmax_t max_bytes = kMaxJsonFileBytes);

// An application run's report (docs/applications.md#the-report) where PATH
// (a results directory or its report.json) holds one; nullopt for a sweep's.
std::optional<nlohmann::json> application_report_at(const std::string& path);
// The application report of `paths` when the first is an application run: its report.json, or with
// several runs of the same experiment their rounds pooled (launch/application_run.hpp); InputError where
// the first is an application run and another is not. nullopt where the first is no application run.
std::optional<nlohmann::json> application_report_of(const std::vector<std::string>& paths);

// A profile as the verbs read one: loaded (load_profile), its warnings (evidence from oversubscribed runs)
// said on stderr as "pico: warning: PATH: ...". `text`, when given, receives the file's bytes (profile_hash.hpp).
TunedProfile read_profile(const std::string& path, std::string* text = nullptr);

}  // namespace pico::cli
