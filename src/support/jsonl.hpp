// SPDX-License-Identifier: BSD-3-Clause
// Append-only JSON-lines files in a results directory (opened as
// support/results_file.hpp opens them: never through a link): one complete line per record, written with
// one write() at once, so a killed worker leaves every finished record
// readable, and a failed write (disk full) leaves no partial line: the file is
// cut back to where it was and WriteError (support/file_io.hpp) thrown.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/file_io.hpp"

namespace pico {

class JsonLinesFile {
 public:
  explicit JsonLinesFile(const std::string& path);  // throws WriteError
  void append(const nlohmann::json& record);         // throws WriteError

 private:
  void end_torn_line();
  void append_raw(const std::string& text);
  std::string path_;
  FileDescriptor file_;
};

// Every complete, parseable line of a JSON-lines file; a torn last line (the
// writer was killed mid-write) is ignored, as is a line nested deeper than
// kMaxJsonDepth. A missing file gives no records; a link in its place is an InputError.
std::vector<nlohmann::json> read_json_lines(const std::string& path);

// An exception's message without nlohmann's "[json.exception.type_error.302] "
// tag, which means nothing to a user reading why a file was refused, and
// nlohmann's phrases in a reader's words: "type must be number, but is
// object" is "is an object, not a number"; "key 'x' not found" is "the key
// 'x' is missing".
std::string json_error_text(const std::exception& e);

}  // namespace pico
