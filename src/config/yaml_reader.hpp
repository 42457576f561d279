// SPDX-License-Identifier: BSD-3-Clause
// Strict reading of pico's YAML files on top of yaml-cpp. Every accessor checks
// the shape of its node and throws InputError pointing at the offending line and
// column, so experiment.cpp and platform.cpp only state what they expect.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace pico::yaml {

// Levenshtein distance, for "did you mean" hints.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to word, if it is close enough to be a plausible typo.
std::optional<std::string> closest(std::string_view word, std::span<const std::string> candidates);
// The candidates near `word`, nearest first, at most `most`: within a third of
// its letters' edits (two at least), or holding it whole ("doubling" names
// every *_doubling). For a list too long to read (a library's ~80 algorithms).
std::vector<std::string> near_names(std::string_view word, std::span<const std::string> candidates,
                                    std::size_t most = 6);
// "did you mean 'x'?" when a candidate is close, else "<label>: a, b, c".
std::string suggest(std::string_view word, std::span<const std::string> candidates, std::string_view label);
// Like suggest, but always names the whole set: "did you mean 'x'? <label>: a, b, c".
std::string suggest_and_list(std::string_view word, std::span<const std::string> candidates,
                             std::string_view label);
// "a, b, c"
std::string join(std::span<const std::string> items);

class Map;

// The longest name as_path_component accepts; far below any file system's
// limit, so that a results path built from it stays readable.
inline constexpr std::size_t kMaxPathComponent = 64;

// A node together with the file it came from.
class Value {
 public:
  Value(YAML::Node node, std::string file);

  // Parses a file's text, which must hold exactly one non-empty document.
  // YAML syntax errors become InputErrors at the spot the parser stopped.
  static Value parse_document(const std::string& text, const std::string& file);

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }
  int line() const;    // 1-based; 0 when unknown
  int column() const;  // 1-based; 0 when unknown

  [[noreturn]] void fail(const std::string& message, const std::string& hint = {}) const;

  bool is_null() const { return !node_.IsDefined() || node_.IsNull(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool is_list() const { return node_.IsSequence(); }
  bool is_map() const { return node_.IsMap(); }
  // "a list", "a map", "nothing" or the quoted scalar, for "expected X, got Y".
  std::string describe() const;

  // what names the setting in messages, e.g. "processes".
  std::string as_string(std::string_view what) const;
  std::string as_nonempty_string(std::string_view what) const;
  // A name that pico turns into one directory or file name: [A-Za-z0-9._-],
  // not starting with '.', at most kMaxPathComponent characters.
  std::string as_path_component(std::string_view what) const;
  std::int64_t as_int(std::string_view what, std::int64_t min, std::int64_t max) const;
  bool as_bool(std::string_view what) const;
  // One of allowed, else an error with a did-you-mean hint.
  std::string as_choice(std::string_view what, std::span<const std::string> allowed) const;

  // Where a list is expected a single item stands for a one-item list, so
  // `dtypes: float32` reads like `dtypes: [float32]`.
  std::vector<Value> as_list(std::string_view what) const;
  // A map whose keys must all be in allowed; context names it in messages ("timing").
  Map as_map(std::string_view context, std::span<const std::string> allowed) const;
  // A map with arbitrary (but scalar, distinct) keys: (key node, value node) pairs.
  std::vector<std::pair<Value, Value>> as_entries(std::string_view context) const;

 private:
  YAML::Node node_;
  std::string file_;
  // yaml-cpp places an empty value ("key:") at the start of the next line; errors
  // about it read better at the key, whose position is kept here.
  int key_line_ = 0;
  int key_column_ = 0;
};

// A map read through Value::as_map: keys are known to be allowed and distinct.
class Map {
 public:
  Map(Value self, std::string context, std::vector<std::pair<Value, Value>> entries);

  const Value& self() const { return self_; }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::optional<Value> get(std::string_view key) const;
  // Missing keys are reported at the map itself.
  Value require(std::string_view key) const;
  // The key node, for errors about the setting as a whole rather than its value.
  std::optional<Value> key(std::string_view key) const;

 private:
  const std::pair<Value, Value>* find(std::string_view key) const;

  Value self_;
  std::string context_;
  std::vector<std::pair<Value, Value>> entries_;
};

}  // namespace pico::yaml
