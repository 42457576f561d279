// SPDX-License-Identifier: BSD-3-Clause
#include "config/yaml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "support/plain_text.hpp"

namespace pico::yaml {
namespace {

// yaml-cpp marks are 0-based, with -1 for "no position".
int one_based(int zero_based) { return zero_based < 0 ? 0 : zero_based + 1; }

InputError syntax_error(const YAML::Exception& e, const std::string& file) {
  const bool known = !e.mark.is_null();
  return InputError(file, known ? one_based(e.mark.line) : 0, known ? one_based(e.mark.column) : 0,
                     fmt::format("invalid YAML: {}", e.msg),
                     "check the indentation (keys of one map must line up) and the quoting near this spot");
}

// Where each document of a stream starts, and whether it holds anything.
// yaml-cpp 0.7 (Debian 12) never ends a stream with a stray ',' where a node
// should start (jbeder/yaml-cpp#1040, fixed upstream in 0.8.1): LoadAll then
// allocates empty documents until memory runs out. Documents are counted
// here one at a time instead, and one that starts where the one before it
// did is the parser standing still: a syntax error at that spot.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  std::vector<bool> has_content;
  void OnDocumentStart(const YAML::Mark& mark) override {
    starts.push_back(mark);
    has_content.push_back(false);
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { has_content.back() = true; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {
    has_content.back() = true;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    has_content.back() = true;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    has_content.back() = true;
  }
  void OnMapEnd() override {}
};

// Throws the first document's syntax error, a stuck parser's, or a second
// document's "more than one" error; returns whether the first holds anything.
bool check_documents(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts documents;
  try {
    while (documents.starts.size() < 2 && parser.HandleNextDocument(documents)) {
      if (documents.starts.size() == 2 && documents.starts[1].pos == documents.starts[0].pos) {
        const YAML::Mark& at = documents.starts[1];
        const auto pos = static_cast<std::size_t>(std::max(at.pos, 0));
        throw InputError(file, one_based(at.line), one_based(at.column),
                         fmt::format("invalid YAML: '{}' cannot start a value here",
                                     printable(text.substr(pos, 1))),
                         "quote the value, or remove the stray character");
      }
    }
  } catch (const YAML::Exception& e) {
    throw syntax_error(e, file);
  }
  if (documents.starts.size() > 1) {
    const YAML::Mark& second = documents.starts[1];
    throw InputError(file, one_based(second.line), one_based(second.column),
                     "the file holds more than one YAML document", "remove the extra '---' separator");
  }
  return !documents.has_content.empty() && documents.has_content.front();
}

bool is_path_component_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

// Why s cannot be a single directory name, or "" when it can. '/' and ".."
// would leave the directory it is put under; a leading '.' hides it; blanks
// and control characters break shells and terminals that show it.
std::string path_component_problem(const std::string& s) {
  if (s.size() > kMaxPathComponent) return fmt::format("is longer than {} characters", kMaxPathComponent);
  if (s.front() == '.') return "starts with '.'";
  for (char c : s)
    if (!is_path_component_char(c))
      return std::iscntrl(static_cast<unsigned char>(c)) ? "contains a control character"
                                                         : fmt::format("contains '{}'", c);
  return {};
}

// yaml-cpp reads "\0" followed by 'e' as an escape (ESC) and stores it; no
// setting of pico's can hold a NUL, so one anywhere is an error at its spot.
[[noreturn]] void fail_at_byte(const std::string& text, std::size_t at, const std::string& file,
                               const std::string& message, const std::string& hint) {
  const std::size_t newline_before = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  const std::size_t line_start = newline_before == std::string::npos ? 0 : newline_before + 1;
  const auto line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  throw InputError(file, line + 1, static_cast<int>(at - line_start) + 1, message, hint);
}

void reject_nul(const std::string& text, const std::string& file) {
  const std::size_t at = text.find('\0');
  if (at == std::string::npos) return;
  fail_at_byte(text, at, file, "the file contains a NUL byte",
               "a YAML file is text: remove the NUL, or check that this is the file you meant");
}

// pico records what it read (run.json, report.json are JSON, which is UTF-8):
// a byte that is not UTF-8, in a description or an env value, is refused here,
// where `pico validate` sees it, not when the run writes its first record.
void reject_invalid_utf8(const std::string& text, const std::string& file) {
  const auto problem = utf8_problem(text);
  if (!problem) return;
  fail_at_byte(text, problem->byte, file, "the file " + problem->what,
               "a YAML file is UTF-8 text: re-encode it (e.g. iconv -f latin1 -t utf-8)");
}

std::string list_hint(std::span<const std::string> candidates, std::string_view label) {
  return fmt::format("{}: {}", label, join(candidates));
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest(std::string_view word, std::span<const std::string> candidates) {
  // Two edits cover a transposition ("flaot32"); requiring fewer edits than the
  // word has letters keeps "x" from "matching" every short name.
  constexpr std::size_t kMaxDistance = 2;
  std::optional<std::string> best;
  std::size_t best_distance = kMaxDistance + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance && d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::vector<std::string> near_names(std::string_view word, std::span<const std::string> candidates,
                                    std::size_t most) {
  const std::size_t within = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    const bool holds = word.size() >= 4 && c.find(word) != std::string::npos;
    if ((d <= within && d < word.size()) || holds) near.emplace_back(holds ? std::min(d, within) : d, c);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::vector<std::string> out;
  for (const auto& [d, c] : near)
    if (out.size() < most) out.push_back(c);
  return out;
}

std::string suggest(std::string_view word, std::span<const std::string> candidates, std::string_view label) {
  if (auto c = closest(word, candidates)) return fmt::format("did you mean '{}'?", *c);
  return list_hint(candidates, label);
}

std::string suggest_and_list(std::string_view word, std::span<const std::string> candidates,
                             std::string_view label) {
  if (auto c = closest(word, candidates)) return fmt::format("did you mean '{}'? {}", *c, list_hint(candidates, label));
  return list_hint(candidates, label);
}

std::string join(std::span<const std::string> items) { return fmt::format("{}", fmt::join(items, ", ")); }

// ---- Value ----------------------------------------------------------------

Value::Value(YAML::Node node, std::string file) : node_(std::move(node)), file_(std::move(file)) {}

Value Value::parse_document(const std::string& text, const std::string& file) {
  reject_nul(text, file);
  reject_invalid_utf8(text, file);
  if (!check_documents(text, file))
    throw InputError(file, 0, 0, "the file is empty", "write a YAML map of settings, e.g. 'name: ...'");
  try {
    return Value(YAML::Load(text), file);  // one document, checked above
  } catch (const YAML::Exception& e) {
    throw syntax_error(e, file);
  }
}

int Value::line() const {
  if (is_null() && key_line_ > 0) return key_line_;
  return node_.IsDefined() ? one_based(node_.Mark().line) : 0;
}
int Value::column() const {
  if (is_null() && key_line_ > 0) return key_column_;
  return node_.IsDefined() ? one_based(node_.Mark().column) : 0;
}

void Value::fail(const std::string& message, const std::string& hint) const {
  throw InputError(file_, line(), column(), message, hint);
}

std::string Value::describe() const {
  if (is_null()) return "nothing";
  if (is_list()) return "a list";
  if (is_map()) return "a map";
  // A file that is no YAML map at all (/etc/passwd) is one long scalar: quote
  // its start, not all of it (the error echoed the whole file).
  constexpr std::size_t kShown = 60;
  const std::string& text = node_.Scalar();
  if (text.size() <= kShown) return fmt::format("'{}'", text);
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return fmt::format("'{}...' ({} bytes)", text.substr(0, cut), text.size());
}

std::string Value::as_string(std::string_view what) const {
  if (is_null()) fail(fmt::format("{} needs a value", what));
  if (!is_scalar()) fail(fmt::format("{} must be a single value, got {}", what, describe()));
  return node_.Scalar();
}

std::string Value::as_nonempty_string(std::string_view what) const {
  std::string s = as_string(what);
  if (s.empty()) fail(fmt::format("{} must not be empty", what));
  return s;
}

std::string Value::as_path_component(std::string_view what) const {
  std::string s = as_nonempty_string(what);
  if (const std::string problem = path_component_problem(s); !problem.empty())
    fail(fmt::format("{} '{}' {}: it becomes a directory name", what, printable(s), problem),
         fmt::format("use letters, digits, '.', '_' and '-' (not starting with '.'), at most {} characters",
                     kMaxPathComponent));
  return s;
}

std::int64_t Value::as_int(std::string_view what, std::int64_t min, std::int64_t max) const {
  const std::string& s = as_string(what);
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range) fail(fmt::format("{} is out of range: {}", what, s));
  if (ec != std::errc() || ptr != s.data() + s.size())
    fail(fmt::format("{} must be an integer, got {}", what, describe()));
  if (v < min) fail(fmt::format("{} must be at least {}, got {}", what, min, v));
  if (v > max) fail(fmt::format("{} must be at most {}, got {}", what, max, v));
  return v;
}

bool Value::as_bool(std::string_view what) const {
  as_string(what);  // rejects lists, maps and missing values with the usual message
  bool v = false;
  if (!YAML::convert<bool>::decode(node_, v))
    fail(fmt::format("{} must be true or false, got {}", what, describe()));
  return v;
}

std::string Value::as_choice(std::string_view what, std::span<const std::string> allowed) const {
  std::string s = as_string(what);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
    fail(fmt::format("unknown {} '{}'", what, s), suggest_and_list(s, allowed, "allowed"));
  return s;
}

std::vector<Value> Value::as_list(std::string_view what) const {
  if (is_null()) fail(fmt::format("{} needs a value", what));
  if (!is_list()) return {*this};
  std::vector<Value> items;
  for (const auto& item : node_) items.emplace_back(item, file_);
  return items;
}

std::vector<std::pair<Value, Value>> Value::as_entries(std::string_view context) const {
  if (!is_map()) fail(fmt::format("{} must be a map of 'key: value' lines, got {}", context, describe()));
  std::vector<std::pair<Value, Value>> entries;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    Value key(it->first, file_);
    if (!key.is_scalar()) key.fail(fmt::format("keys in {} must be plain names, got {}", context, key.describe()));
    for (const auto& [seen, unused] : entries)
      if (seen.node().Scalar() == key.node().Scalar())
        key.fail(fmt::format("'{}' is given twice in {}", key.node().Scalar(), context),
                 fmt::format("it was first given at line {}", seen.line()));
    Value value(it->second, file_);
    value.key_line_ = key.line();
    value.key_column_ = key.column();
    entries.emplace_back(std::move(key), std::move(value));
  }
  return entries;
}

Map Value::as_map(std::string_view context, std::span<const std::string> allowed) const {
  auto entries = as_entries(context);
  for (const auto& [key, unused] : entries) {
    const std::string& k = key.node().Scalar();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      key.fail(fmt::format("unknown key '{}' in {}", k, context), suggest(k, allowed, "allowed keys"));
  }
  return Map(*this, std::string(context), std::move(entries));
}

// ---- Map ------------------------------------------------------------------

Map::Map(Value self, std::string context, std::vector<std::pair<Value, Value>> entries)
    : self_(std::move(self)), context_(std::move(context)), entries_(std::move(entries)) {}

const std::pair<Value, Value>* Map::find(std::string_view key) const {
  for (const auto& entry : entries_)
    if (entry.first.node().Scalar() == key) return &entry;
  return nullptr;
}

std::optional<Value> Map::get(std::string_view key) const {
  if (const auto* e = find(key)) return e->second;
  return std::nullopt;
}

Value Map::require(std::string_view key) const {
  if (const auto* e = find(key)) return e->second;
  self_.fail(fmt::format("{} is missing the required key '{}'", context_, key));
}

std::optional<Value> Map::key(std::string_view key) const {
  if (const auto* e = find(key)) return e->first;
  return std::nullopt;
}

}  // namespace pico::yaml
