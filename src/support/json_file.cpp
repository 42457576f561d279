// SPDX-License-Identifier: BSD-3-Clause
#include "support/json_file.hpp"

#include <fstream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "support/jsonl.hpp"
#include "support/results_file.hpp"
#include "support/whole_file.hpp"

namespace pico {
namespace {

// The line and column of a byte offset, for a JSON syntax error.
std::pair<int, int> line_and_column(std::string_view text, std::size_t byte) {
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

// nlohmann's DOM builder with a bound on nesting: it stops the parse (false)
// at the first array or object deeper than kMaxJsonDepth.
template <class Json>
class BoundedDomParser {
 public:
  using Dom = nlohmann::detail::json_sax_dom_parser<Json>;
  using number_integer_t = typename Json::number_integer_t;
  using number_unsigned_t = typename Json::number_unsigned_t;
  using number_float_t = typename Json::number_float_t;
  using string_t = typename Json::string_t;
  using binary_t = typename Json::binary_t;

  BoundedDomParser(Json& result, bool exceptions) : dom_(result, exceptions) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool key(string_t& v) { return dom_.key(v); }
  bool start_object(std::size_t n) { return deeper() && dom_.start_object(n); }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return deeper() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  // Also where a number past the largest double stops the parse: nlohmann
  // reports that as out_of_range 406, which carries no byte of its own.
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    error_byte_ = position >= token.size() ? position - token.size() : 0;  // where the token starts
    return dom_.parse_error(position, token, e);
  }
  bool too_deep() const { return too_deep_; }
  std::size_t error_byte() const { return error_byte_; }

 private:
  bool deeper() {
    if (++depth_ <= kMaxJsonDepth) return true;
    too_deep_ = true;
    return false;
  }
  Dom dom_;
  int depth_ = 0;
  bool too_deep_ = false;
  std::size_t error_byte_ = 0;
};

template <class Json>
Json parse_bounded(std::string_view text, const std::string& where, const std::string& hint) {
  Json result;
  BoundedDomParser<Json> sax(result, true);
  try {
    Json::sax_parse(text, &sax);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts the byte after the error; its own line/column text is dropped for ours.
    const auto [line, column] = line_and_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string why = json_error_text(e);
    if (const auto colon = why.find(": "); why.rfind("parse error", 0) == 0 && colon != std::string::npos)
      why.erase(0, colon + 2);
    throw InputError(where, line, column, "not valid JSON: " + why, hint);
  } catch (const nlohmann::json::out_of_range& e) {  // a number past the largest double ("1e999")
    const auto [line, column] = line_and_column(text, sax.error_byte());
    throw InputError(where, line, column, json_error_text(e) + ": pico reads numbers up to 1.8e308",
                     hint.empty() ? "write the number within range" : hint);
  }
  if (sax.too_deep())
    throw InputError(where, fmt::format("the JSON nests deeper than {} levels", kMaxJsonDepth), hint);
  return result;
}

constexpr const char* kWrittenHint = "pico reads the JSON files it wrote; was this one cut short or edited?";

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& where, const std::string& hint) {
  return parse_bounded<nlohmann::json>(text, where, hint);
}

nlohmann::ordered_json parse_ordered_json_text(std::string_view text, const std::string& where,
                                               const std::string& hint) {
  return parse_bounded<nlohmann::ordered_json>(text, where, hint);
}

std::optional<nlohmann::json> parse_json_line(std::string_view line) {
  nlohmann::json result;
  BoundedDomParser<nlohmann::json> sax(result, false);
  if (!nlohmann::json::sax_parse(line, &sax) || sax.too_deep() || result.is_discarded()) return std::nullopt;
  return result;
}

nlohmann::json read_json_file(const std::filesystem::path& p, const std::string& hint, std::uintmax_t max_bytes) {
  return read_json_file_text(p, hint, max_bytes).json;
}

JsonFileText read_json_file_text(const std::filesystem::path& p, const std::string& hint, std::uintmax_t max_bytes) {
  if (const auto problem = whole_file_problem(p, max_bytes)) throw InputError(p.string(), *problem, hint);
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(p.string(), "cannot open the file", "check its permissions");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  nlohmann::json json = parse_json_text(text, p.string(), kWrittenHint);
  return {std::move(text), std::move(json)};
}

std::optional<nlohmann::json> read_results_json(const std::string& path, const std::string& hint) {
  const std::optional<std::string> text = read_results_file(path);
  if (!text) return std::nullopt;
  nlohmann::json j = parse_json_text(*text, path, hint.empty() ? kWrittenHint : hint);
  // Every results file pico writes is an object; anything else would meet
  // its readers' at("key") as nlohmann's "cannot use at() with array".
  if (!j.is_object())
    throw InputError(path, fmt::format("not as pico writes it: the JSON is {} {}, not an object",
                                       j.is_array() || j.is_object() ? "an" : "a", j.type_name()),
                     hint.empty() ? kWrittenHint : hint);
  return j;
}

std::int64_t json_int(const nlohmann::json& v, std::int64_t lo, std::int64_t hi) {
  if (v.is_number_integer() && !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))) {
    const std::int64_t n = v.get<std::int64_t>();
    if (n >= lo && n <= hi) return n;
  }
  throw std::out_of_range(fmt::format("{} is not a whole number from {} to {}", v.dump(), lo, hi));
}

void malformed_field(std::string_view key, const std::exception& e) {
  throw std::runtime_error(fmt::format("{}: {}", key, json_error_text(e)));
}

void malformed_file(const std::string& path, const std::exception& e) {
  std::string why = json_error_text(e);
  if (why == "map::at" || why == "map::at:  key not found") why = "a record it names is missing";
  throw InputError(path, "not as pico writes it: " + why, kWrittenHint);
}

}  // namespace pico
