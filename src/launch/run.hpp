// SPDX-License-Identifier: BSD-3-Clause
// `pico run` as a library: plan, launch, collect, for any front end verb.
// The local scheduler runs launches here; Slurm runs them in one job
// (launch/slurm_run.hpp) that this follows and collects.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "plan/plan.hpp"
#include "support/wrapped_text.hpp"  // kProseWidth: the width a dry run fits by default

namespace pico {

struct PilotOutcome;  // launch/pilot.hpp

struct RunRequest {
  Experiment experiment;
  Platform platform;
  std::string output_base = "results";  // results/<platform>/<timestamp>-<id>/
  std::string output_dir;               // exact directory, overrides output_base
  bool progress = true;
  bool wait = true;  // Slurm: follow the job to its end; false returns once it is submitted
  std::string profile;  // --profile: a tuned profile loaded into the library (launch/profile_loading.hpp)
  bool estimate = false;  // --estimate: the dry run's wall-time estimate calibrated by a pilot (launch/pilot.hpp)
};

struct RunResult {
  std::string dir;
  nlohmann::json report;  // null while a submitted job has not been collected
  int exit_code = 0;      // 0 all ok or skipped, 1 a case failed, 3 a results file could not be written
  bool report_written = false;  // report.json holds `report`
  std::string write_error;      // the first results file that could not be written, and why
  std::string job_id;     // the Slurm job, if any
  std::string job_state;  // its state when pico stopped following it
};

RunResult run_experiment(const RunRequest& request);

// --resume DIR: runs the cases whose latest record in DIR is not ok, with the
// experiment, platform and plan saved in DIR, numbering launches on.
// Every file of DIR that says what starts processes is checked as a new run's input, and DIR must be
// writable only by this user (launch/resume.hpp, support/results_file.hpp).
RunResult resume_run(const std::string& dir, bool progress, bool wait);

// What `--resume DIR --dry-run` prints: the cases left and the launch commands the resume would run (the
// ones a new run's dry run prints, in `width` as there), after the same checks; reads DIR only.
std::string resume_dry_run_text(const std::string& dir, std::size_t width = kProseWidth);

// report.json from what DIR holds now.
RunResult report_run(const std::string& dir);

// Before anything runs, on a platform whose ranks run on this host (not
// Slurm, not an emulated cluster): a line per process count whose ranks would
// outnumber this host's cores, and one where the load already on it leaves
// them too few (core/noise_guard.hpp: the report would mark those sizes); ""
// when neither. `load_now`: the host's 1-minute load average, none unknown.
std::string crowding_warnings(const Platform& platform, const std::vector<int>& process_counts,
                              std::optional<double> load_now);

// What --dry-run prints: every case and the exact launch commands (or, on
// Slurm, the job script); the wall time estimated (plan/wall_estimate.hpp),
// from `pilot` where one ran, else uncalibrated; with `results_base`, the
// wall time earlier runs there predict (launch/estimate_history.hpp). The case table is fitted to
// `width` as the run's table is and the launch commands are broken into lines
// of `width` (--wide: kUnlimitedWidth, each whole); the lines around them are
// wrapped to 100 columns (docs/report.md#width).
std::string dry_run_text(const Plan& plan, const Platform& platform, const PlanTarget& target,
                         const std::string& dir_placeholder, const std::string& experiment_name = "",
                         int first_launch = 0, const std::string& results_base = "", std::size_t width = kProseWidth,
                         const PilotOutcome* pilot = nullptr);

}  // namespace pico
