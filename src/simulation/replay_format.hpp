// SPDX-License-Identifier: BSD-3-Clause
// pico replay's outputs. Each format is one descriptor in its own file
// (replay_goal.cpp, replay_chakra.cpp) over what every format gets: the
// application replayed (a ReplaySource, simulation/replay_source.hpp: a
// workload or a trace behind one interface), the algorithms chosen for its
// calls and the settings the command line gave. replay_formats.cpp lists
// them; --format's choices and help come from the list, so adding a format is
// its file, its row there, its tests and docs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "simulation/loggp_model.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/replay.hpp"
#include "simulation/replay_source.hpp"
#include "tuning/profile.hpp"

namespace pico {

// The command line's settings, checked.
struct ReplaySettings {
  std::string output;                  // -o
  std::string model_path;              // --model ("" for the built-in one)
  LogGPModel model;
  ReplayOptions options;               // reduction cost, segment size, threads
  std::optional<std::uint64_t> cap;    // --max-output
  AlgorithmChoice chosen;              // the profile's and --algorithm's choice over ATLAHS's
  bool from_profile = false;           // a --profile chose
  AlgorithmChoice baseline;            // what --simulate compares against (--baseline)
  std::string baseline_label;          // the baseline in words
  double compute_scale = 1;
  std::optional<LogGOPSimTools> simulator;  // --simulate
};

// Sets the settings' choices from a profile (null: none): `chosen` the
// profile's over ATLAHS's fixed algorithms (fixed_choice puts --algorithm
// over it), the baseline ATLAHS's or, with `recorded_default`, what the
// library's default ran in the profile's sweep (like for like). Throws
// InputError where the profile's library has no reference equivalents or a
// recorded default none.
void set_replay_choices(ReplaySettings& s, const TunedProfile* profile, const std::string& profile_path,
                        bool recorded_default);

struct ReplayFormat {
  std::string_view name;         // --format value
  std::string_view description;  // one line, for --help
  std::string_view output_hint;  // how -o is given, e.g. "e.g. -o app.goal"
  bool simulates;                // --simulate runs LogGOPSim on what it writes
  // Writes the output and says on `log` what was written and how to use it.
  void (*write)(const ReplaySource& source, const ReplaySettings& settings, std::FILE* log);
};

// The formats, in the order --help lists them (the first is the default).
const std::vector<const ReplayFormat*>& replay_formats();
// The format named (InputError at --format where none is).
const ReplayFormat& replay_format(std::string_view name);

// Refuses writing `what`, about `estimate` bytes, past --max-output (InputError).
void check_output_size(const std::string& what, std::uint64_t estimate, std::optional<std::uint64_t> cap);

}  // namespace pico
