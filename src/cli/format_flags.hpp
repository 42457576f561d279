// SPDX-License-Identifier: BSD-3-Clause
// A verb whose --format chooses among descriptors that declare their own
// flags (pico export's ExportFormat, pico schedule's ScheduleFormat): every
// declared flag registered once on the command, its help naming the formats
// that take it, and a given flag the chosen format does not take refused.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/format_args.hpp"
#include "support/input_error.hpp"

namespace pico::cli {

using GivenFlags = std::map<std::string, std::string>;

// The formats among `formats` that declare flag `name`.
template <class Format>
std::vector<std::string_view> formats_taking(const std::vector<const Format*>& formats, std::string_view name) {
  std::vector<std::string_view> out;
  for (const Format* f : formats)
    for (const FormatFlag& flag : f->flags)
      if (flag.name == name) out.push_back(f->name);
  return out;
}

// One option per flag name on cmd; what the command line gives lands in *given.
template <class Format>
void add_format_flags(CLI::App* cmd, const std::vector<const Format*>& formats,
                      const std::shared_ptr<GivenFlags>& given) {
  std::map<std::string_view, bool> registered;
  for (const Format* f : formats)
    for (const FormatFlag& flag : f->flags) {
      if (!registered.emplace(flag.name, true).second) continue;
      auto* option = cmd->add_option_function<std::string>(
          fmt::format("--{}", flag.name),
          [given, name = std::string(flag.name)](const std::string& v) { (*given)[name] = v; },
          fmt::format("{}: {}", fmt::join(formats_taking(formats, flag.name), ", "), flag.help));
      // An integer flag's value must read as one (CLI::Range converts to its type first).
      if (flag.kind == FlagKind::integer)
        option->check(CLI::Range(static_cast<long long>(flag.min), static_cast<long long>(flag.max)));
      if (flag.kind == FlagKind::number) option->check(CLI::Range(flag.min, flag.max));
    }
}

// The given flags as the chosen format's arguments; InputError (WHERE the
// flag) for one it does not take, naming the formats that do.
template <class Format>
FormatArgs format_args(const Format& chosen, const std::vector<const Format*>& formats, const GivenFlags& given) {
  FormatArgs args;
  for (const auto& [name, value] : given) {
    const auto takers = formats_taking(formats, name);
    if (std::find(takers.begin(), takers.end(), chosen.name) == takers.end())
      throw InputError("--" + name, fmt::format("--format {} takes no --{}", chosen.name, name),
                       fmt::format("--{} is for {}", name, fmt::join(takers, ", ")));
    args.set(name, value);
  }
  return args;
}

}  // namespace pico::cli
