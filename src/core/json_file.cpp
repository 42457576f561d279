#include "core/json_file.hpp"

#include <fstream>
#include <iterator>
#include <utility>

#include "core/input_error.hpp"
#include "core/jsonl.hpp"
#include "core/whole_file.hpp"

namespace pico {
namespace {

// The largest JSON file pico reads. A report holds every case, and with
// keep_samples every timing sample, so a large sweep's report reaches
// hundreds of MiB; 1 GiB keeps those readable while `pico report /dev/zero`
// or a wrong file is refused before reading.
constexpr std::uintmax_t kMaxJsonFileBytes = 1024 * kMiB;

// The line and column of a byte offset, for a JSON syntax error.
std::pair<int, int> line_and_column(const std::string& text, std::size_t byte) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace

nlohmann::json read_json_file(const std::filesystem::path& p, const std::string& hint) {
  return read_json_file_text(p, hint).json;
}

JsonFileText read_json_file_text(const std::filesystem::path& p, const std::string& hint) {
  if (const auto problem = whole_file_problem(p, kMaxJsonFileBytes)) throw InputError(p.string(), *problem, hint);
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(p.string(), "cannot open the file", "check its permissions");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    nlohmann::json json = nlohmann::json::parse(text);
    return {std::move(text), std::move(json)};
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts the byte after the error; its own line/column text is dropped for ours.
    const auto [line, column] = line_and_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string why = json_error_text(e);
    if (const auto colon = why.find(": "); why.rfind("parse error", 0) == 0 && colon != std::string::npos)
      why.erase(0, colon + 2);
    throw InputError(p.string(), line, column, "not valid JSON: " + why,
                     "pico reads the JSON files it wrote; was this one cut short or edited?");
  }
}

}  // namespace pico
