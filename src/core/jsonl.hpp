// Append-only JSON-lines files: one complete line per record, flushed at
// once, so a killed worker leaves every finished record readable.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

class JsonLinesFile {
 public:
  explicit JsonLinesFile(const std::string& path);
  ~JsonLinesFile();
  JsonLinesFile(const JsonLinesFile&) = delete;
  JsonLinesFile& operator=(const JsonLinesFile&) = delete;
  void append(const nlohmann::json& record);

 private:
  void append_raw(const std::string& text);
  std::FILE* file_ = nullptr;
  std::string path_;
};

// Every complete, parseable line of a JSON-lines file; a torn last line (the
// writer was killed mid-write) is ignored. A missing file gives no records.
std::vector<nlohmann::json> read_json_lines(const std::string& path);
}  // namespace pico
