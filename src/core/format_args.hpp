// SPDX-License-Identifier: BSD-3-Clause
// The flags an output format takes beside the verb's own (pico export's
// formats, pico schedule's), declared by the format and registered by the
// verb, the values the command line gave for them, and the lookup of a
// format by name.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {

enum class FlagKind { text, integer, number };

// A flag a format takes (--NAME VALUE): text, or a number in [min, max].
struct FormatFlag {
  std::string_view name;  // without the dashes: "mpich-defaults"
  std::string_view help;
  FlagKind kind;
  double min;  // integer and number: the range the command line checks
  double max;
};

// The values the command line gave for the chosen format's flags, by name.
class FormatArgs {
 public:
  void set(std::string name, std::string value) { values_[std::move(name)] = std::move(value); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  // "" when not given.
  std::string text(std::string_view name) const;
  // nullopt when not given; the command line checked the range.
  std::optional<long long> integer(std::string_view name) const;
  std::optional<double> number(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// The format named `name` among `formats` (descriptors with a `name`:
// pico export's, pico schedule's), or InputError at --format naming them all.
template <class Format>
const Format& find_format(std::string_view name, const std::vector<const Format*>& formats, std::string_view verb) {
  std::string names;
  for (const Format* f : formats) {
    if (f->name == name) return *f;
    names += fmt::format("{}{}", names.empty() ? "" : ", ", f->name);
  }
  throw InputError("--format", fmt::format("unknown {} format '{}'", verb, name), "the formats: " + names);
}

}  // namespace pico
