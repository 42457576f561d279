// SPDX-License-Identifier: BSD-3-Clause
// The table of pico replay's output formats: adding one is a file defining
// its ReplayFormat (src/simulation/replay_<format>.cpp) and one row here.
#include <algorithm>

#include <fmt/format.h>

#include "simulation/profile_choice.hpp"
#include "simulation/replay_format.hpp"
#include "support/input_error.hpp"
#include "support/size_text.hpp"

namespace pico {

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

void set_replay_choices(ReplaySettings& s, const TunedProfile* profile, const std::string& profile_path,
                        bool recorded_default) {
  s.chosen = atlahs_choice();
  s.baseline = atlahs_choice();
  s.baseline_label = "ATLAHS's fixed algorithms";
  s.from_profile = profile != nullptr;
  if (!profile) return;
  const ReferenceEquivalents eq = load_reference_equivalents(profile->library.name, profile_path);
  s.chosen = profile_choice(*profile, eq, profile_path, s.chosen);
  if (recorded_default) {
    // Like for like: the profile against what the library's default ran in the profile's sweep.
    s.baseline = profile_default_choice(*profile, eq, profile_path, s.baseline);
    s.baseline_label = "the library default as the profile's sweep saw it run, ATLAHS's where it did not say";
  }
}

void check_output_size(const std::string& what, std::uint64_t estimate, std::optional<std::uint64_t> cap) {
  if (cap && estimate > *cap)
    throw InputError("--max-output", fmt::format("{} would be about {}, over the cap of {}", what, size_text(estimate), size_text(*cap)),
                     "raise --max-output, or replay fewer iterations or ranks");
}

}  // namespace pico
