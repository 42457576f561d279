// SPDX-License-Identifier: BSD-3-Clause
// `pico run` of an application experiment (config/application.hpp,
// docs/applications.md): every variant of the application in shuffled,
// interleaved rounds on the platform's launcher, each launch in a working
// directory of its own with the experiment's inputs, its wall time, exit
// status, output tail and figure of merit recorded in launches.jsonl, and,
// with the app counter (instrumentation/app_counter) and on Open MPI the
// interposer preloaded into every rank, which algorithm ran per collective
// and message size. A failed launch is recorded with its exit code and the
// tail of its output; the other launches go on. The results directory has
// the lock, resume and report of a sweep's.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/application.hpp"
#include "config/platform.hpp"
#include "support/wrapped_text.hpp"  // kProseWidth: the width a dry run fits by default

namespace pico {

struct ApplicationRunRequest {
  ApplicationExperiment experiment;
  Platform platform;
  std::string output_base = "results";
  std::string output_dir;  // exact directory, overrides output_base
  bool progress = true;
};

struct ApplicationRunResult {
  std::string dir;
  nlohmann::json report;
  int exit_code = 0;  // 0 every launch ok, 1 a launch failed
};

// One launch of the plan: which variant, in which round, in what order.
struct PlannedLaunch {
  int index = 0;  // position in the plan, the order launches run in
  int np = 0;
  int round = 0;
  int repetition = 0;
  std::string variant;
};

// Process count by process count, round by round, each round every variant
// `repetitions` times in an order shuffled from the experiment's seed.
std::vector<PlannedLaunch> plan_application(const ApplicationExperiment& e);

ApplicationRunResult run_application(const ApplicationRunRequest& request);
// --resume DIR of an application run: the planned launches without an ok record.
ApplicationRunResult resume_application(const std::string& dir, bool progress);
// Whether DIR holds an application run (application.json).
bool is_application_run(const std::string& dir);
// report.json of DIR from what it holds now.
ApplicationRunResult report_application(const std::string& dir);

// The report of several runs of one application experiment taken together:
// run k's round r becomes round r plus the rounds of the runs before it, so
// the paired-round speedup and its interval rest on every round (more rounds,
// a narrower interval, the same rule). InputError, naming the first run and
// what differs, where the runs are not of the same experiment: command,
// process counts, figure of merit, repetitions, platform, MPI library and
// version, and the variants (names, algorithms, environment, profile hash).
// Writes nothing.
nlohmann::json pooled_application_report(const std::vector<std::string>& dirs);

// What --dry-run prints: the launches and the exact command of each variant, each command broken into lines of
// `width` as a run's dry run's are (launch/run.hpp; --wide: kUnlimitedWidth, whole).
std::string application_dry_run_text(const ApplicationRunRequest& request, std::size_t width = kProseWidth);

}  // namespace pico
