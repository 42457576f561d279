// Assembles report.json from what a results directory holds: run.json (the
// front end's record), plan.json, cases.jsonl and launch-*.info.json. The
// report is a pure function of the directory, so it can be rebuilt later.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

nlohmann::json build_report(const std::string& dir);

// Writes to a temporary file in the same directory, then renames over the
// target. Throws WriteError (core/file_io.hpp) naming the file and the reason,
// and leaves no temporary file behind.
void write_json_atomically(const std::string& path, const nlohmann::json& j);

// A report from a results directory or a report.json path.
nlohmann::json load_report(const std::string& dir_or_file);

}  // namespace pico
