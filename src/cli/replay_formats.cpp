// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>

#include <fmt/format.h>

#include "cli/replay_format.hpp"
#include "core/input_error.hpp"
#include "core/size_text.hpp"

namespace pico::cli {

extern const ReplayFormat goal_replay_format;    // replay_goal.cpp
extern const ReplayFormat chakra_replay_format;  // replay_chakra.cpp

const std::vector<const ReplayFormat*>& replay_formats() {
  static const std::vector<const ReplayFormat*> formats{&goal_replay_format, &chakra_replay_format};
  return formats;
}

const ReplayFormat& replay_format(std::string_view name) {
  const auto& formats = replay_formats();
  const auto it = std::find_if(formats.begin(), formats.end(), [&](const ReplayFormat* f) { return f->name == name; });
  if (it == formats.end()) throw InputError("--format", fmt::format("no replay format '{}'", name), "see pico replay --help");
  return **it;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void check_output_size(const std::string& what, std::uint64_t estimate, std::optional<std::uint64_t> cap) {
  if (cap && estimate > *cap)
    throw InputError("--max-output", fmt::format("{} would be about {}, over the cap of {}", what, size_text(estimate), size_text(*cap)),
                     "raise --max-output, or replay fewer iterations or ranks");
}

}  // namespace pico::cli
