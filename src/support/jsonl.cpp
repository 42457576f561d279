// SPDX-License-Identifier: BSD-3-Clause
#include "support/jsonl.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <regex>

#include <fmt/format.h>

#include "support/json_file.hpp"
#include "support/results_file.hpp"

namespace pico {

JsonLinesFile::JsonLinesFile(const std::string& path)
    : path_(path), file_(open_results_file(path, O_RDWR | O_CREAT | O_APPEND)) {
  end_torn_line();
}

// A writer killed mid-line leaves a torn last line; end it so the next record stands on its own line.
void JsonLinesFile::end_torn_line() {
  struct stat st {};
  if (::fstat(file_.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return;
  char last = '\n';
  if (::pread(file_.get(), &last, 1, st.st_size - 1) == 1 && last != '\n') append_raw("\n");
}

void JsonLinesFile::append_raw(const std::string& text) {
  const off_t before = ::lseek(file_.get(), 0, SEEK_END);
  if (write_whole(file_.get(), text)) return;
  const int write_errno = errno;
  // Cut a partial line off: another appender's next record would be glued to it, and both lost.
  // Only pico or rank 0 appends at a time, so nothing but this line lies past `before`.
  if (before >= 0) {
    [[maybe_unused]] const int cut = ::ftruncate(file_.get(), before);  // the error to report is the write's
  }
  throw WriteError(path_, write_errno);
}

void JsonLinesFile::append(const nlohmann::json& record) {
  append_raw(record.dump() + "\n");
}

std::vector<nlohmann::json> read_json_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  const std::optional<std::string> text = read_results_file(path);
  if (!text) return out;
  std::string_view rest = *text;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    if (end > 0)
      if (auto j = parse_json_line(rest.substr(0, end))) out.push_back(std::move(*j));
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return out;
}

namespace {

// nlohmann's type name with its article, as a sentence says it ("null" stands alone).
std::string with_article(const std::string& type) {
  if (type == "null") return "null";
  return (type == "object" || type == "array" ? "an " : "a ") + type;
}

}  // namespace

std::string json_error_text(const std::exception& e) {
  std::string text = e.what();
  if (text.rfind("[json.exception.", 0) != 0) return text;
  const auto end = text.find("] ");
  if (end != std::string::npos) text.erase(0, end + 2);
  // nlohmann's own phrases ("type must be number, but is object") reworded as what the value is and should be.
  static const std::regex type_must(R"(^type must be (\w+), but is (\w+)$)");
  static const std::regex cannot_use(R"(^cannot use (at\(\)|operator\[\]( with a (string|numeric) argument)?) with (\w+)$)");
  static const std::regex key_missing(R"(^key '(.*)' not found$)");
  static const std::regex index_out(R"(^array index (\d+) is out of range$)");
  std::smatch m;
  if (std::regex_match(text, m, type_must)) return fmt::format("is {}, not {}", with_article(m[2]), with_article(m[1]));
  if (std::regex_match(text, m, cannot_use)) {
    const std::string wanted = m[3] == "string" ? "an object" : m[3] == "numeric" ? "an array" : "an object or array";
    return fmt::format("is {}, not {}", with_article(m[4]), wanted);
  }
  if (std::regex_match(text, m, key_missing)) return fmt::format("the key '{}' is missing", m[1].str());
  if (std::regex_match(text, m, index_out)) return fmt::format("has no item {}", m[1].str());
  return text;
}

}  // namespace pico
