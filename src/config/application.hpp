// SPDX-License-Identifier: BSD-3-Clause
// An application experiment (docs/applications.md): instead of collectives,
// an unmodified MPI program, the process counts to run it at, and the
// variants to compare: the library default, tuned profiles (loaded as `pico
// run --profile` loads them), explicit algorithm choices and environments.
// The variants run in shuffled, interleaved rounds (launch/application_run.hpp).
// Its YAML keys are spelled here and in application.cpp alone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace pico {

// What a variant changes in the launch; the default changes nothing.
struct ApplicationVariant {
  std::string name;
  std::string profile;  // a tuned profile (absolute path), "" for none
  std::map<Collective, std::string> algorithms;  // forced through the catalogue's environment variables
  std::map<std::string, std::string> env;        // set as given, over what the profile and algorithms set
  // Where the variant is written, for errors found once the run's library is known.
  std::string file;
  int line = 0;
  int column = 0;
};

// The application's own figure of merit, read from its output: the first
// capture group of the last line `pattern` matches (ECMAScript regex).
struct FigureOfMerit {
  std::string pattern;
  std::string file;  // a file the application writes in its working directory; "" reads its stdout and stderr
  bool higher_is_better = false;
  std::string unit;
};

struct ApplicationExperiment {
  std::string name;
  std::string description;
  // argv; argv[0] resolved: a path relative to the experiment file, else PATH,
  // else a program built beside pico.
  std::vector<std::string> command;
  std::vector<std::string> inputs;  // files copied into each launch's working directory (absolute)
  std::optional<FigureOfMerit> figure_of_merit;
  double timeout_s = 600;  // one launch's wall-time limit
  // The default's launches also write a liballprof-format trace of their
  // world collectives (the app counter), for pico replay's prediction.
  bool trace = false;
  std::vector<int> processes{2};
  std::vector<ApplicationVariant> variants;  // variants[0] is `default`, the baseline
  int rounds = 5;       // each round runs every variant once per repetition, in a shuffled order
  int repetitions = 1;
  std::uint64_t seed = 1;  // the shuffle's
  std::string source_path;
  std::string source_text;
};

// Whether the YAML file at `path` is an application experiment (a top-level
// `application` key). Reads the file; InputError when it cannot be read or parsed.
bool is_application_experiment(const std::string& path);

ApplicationExperiment parse_application_experiment(const std::string& yaml_text, const std::string& file);
ApplicationExperiment load_application_experiment(const std::string& path);

}  // namespace pico
