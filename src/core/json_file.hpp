// Reading a JSON file pico wrote (a report, run.json, a profile, a model)
// with errors in pico's one format: a syntax error names its line and column.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// The file parsed. Throws InputError naming the file (and, for a syntax
// error, line and column) when it cannot be read whole (a FIFO, a directory,
// more than 1 GiB), opened or parsed; `hint` says what the caller expected.
nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& hint);

// The same, keeping the bytes read, for a caller that also fingerprints the
// file: one read, so the hash is of exactly what was parsed.
struct JsonFileText {
  std::string text;
  nlohmann::json json;
};
JsonFileText read_json_file_text(const std::filesystem::path& path, const std::string& hint);

}  // namespace pico
