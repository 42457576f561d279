// SPDX-License-Identifier: BSD-3-Clause
// pico replay's outputs. Each format is one descriptor in its own file
// (replay_goal.cpp, replay_chakra.cpp) over what every format gets: the
// application replayed (a workload or a trace behind one face), the
// algorithms chosen for its calls and the settings the command line gave.
// replay_formats.cpp lists them; --format's choices and help come from the
// list, so adding a format is its file, its row there, its tests and docs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "simulation/chakra_replay.hpp"
#include "simulation/loggp_model.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/profile_choice.hpp"
#include "simulation/replay.hpp"

namespace pico::cli {

// What pico replay writes, a workload or a trace, behind one face.
struct Replayed {
  int ranks = 0;
  std::uint64_t communication_calls = 0;
  std::optional<double> traced_s;  // a trace's own runtime
  std::function<std::vector<std::string>(const AlgorithmChoice&)> choose;
  std::function<void(const std::vector<std::string>&)> print_choices;
  std::function<std::uint64_t(const std::vector<std::string>&, const ReplayOptions&)> estimate;
  std::function<void(const std::vector<std::string>&, const ReplayOptions&, std::ostream&)> write;
  std::function<ChakraReplayOutput(const std::vector<std::string>&, const ChakraReplayOptions&)> write_chakra;
};

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

struct ReplayFormat {
  std::string_view name;         // --format value
  std::string_view description;  // one line, for --help
  std::string_view output_hint;  // how -o is given, e.g. "e.g. -o app.goal"
  bool simulates;                // --simulate runs LogGOPSim on what it writes
  // Writes the output and says what was written and how to use it.
  void (*write)(const Replayed& replayed, const ReplaySettings& settings);
};

// The formats, in the order --help lists them (the first is the default).
const std::vector<const ReplayFormat*>& replay_formats();
// The format named (the command line's choice is checked against the list first).
const ReplayFormat& replay_format(std::string_view name);

double seconds_since(std::chrono::steady_clock::time_point t);
// Refuses writing `what`, about `estimate` bytes, past --max-output (InputError).
void check_output_size(const std::string& what, std::uint64_t estimate, std::optional<std::uint64_t> cap);

}  // namespace pico::cli
