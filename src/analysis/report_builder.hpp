// SPDX-License-Identifier: BSD-3-Clause
// Assembles report.json from what a results directory holds: run.json (the
// front end's record), plan.json, cases.jsonl and launch-*.info.json. The
// report is a pure function of the directory, so it can be rebuilt later.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "support/json_file.hpp"

namespace pico {

// The "schema" member of every report.json this pico writes and reads.
inline constexpr const char* kReportSchema = "pico-report/1";

nlohmann::json build_report(const std::string& dir);

// Writes to a temporary file in the same directory, then renames over the
// target. Throws WriteError (support/file_io.hpp) naming the file and the reason,
// and leaves no temporary file behind.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

// A report from a results directory or a report.json path, checked: a file
// that is not JSON, not a pico report of this schema, or holds a case record
// pico cannot read throws InputError naming the file (and line:column for JSON
// syntax).
// max_bytes: kMaxJsonFileBytesWithin2GB for verbs bound to 2 GB (fit, predict --check).
nlohmann::json load_report(const std::string& dir_or_file, std::uintmax_t max_bytes = kMaxJsonFileBytes);

}  // namespace pico
