// SPDX-License-Identifier: BSD-3-Clause
// pico run EXPERIMENT [-p PLATFORM] [-o DIR] [--np N] [--race BUDGET] [--dry-run] [--estimate] [--no-wait]
// pico run --resume DIR [--dry-run] [--no-wait]
#include <cstdio>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "config/units.hpp"
#include "launch/application_run.hpp"
#include "launch/run.hpp"
#include "reports/application_table.hpp"
#include "support/input_error.hpp"
#include "support/results_file.hpp"

namespace pico::cli {
namespace {

int print_application_result(const ApplicationRunResult& result, bool quiet) {
  if (!quiet) std::fputs(application_table(result.report).c_str(), stdout);
  fmt::print("report: {}/report.json\n", result.dir);
  return result.exit_code;
}

}  // namespace

void add_run(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Run an experiment on a platform and write a report");
  struct Options {
    std::string experiment, platform = "local", output = "results", output_dir, resume, profile, race;
    std::vector<int> np;
    bool dry_run = false, quiet = false, no_wait = false, wide = false, estimate = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("experiment", opts->experiment, "Experiment YAML file (not with --resume)");
  auto* platform =
      cmd->add_option("-p,--platform", opts->platform, "Platform name (platforms/NAME.yaml) or file")->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "Base directory for results/<platform>/<timestamp>-<id>/")
      ->capture_default_str();
  cmd->add_option("--dir", opts->output_dir, "Exact results directory (instead of a new one under --output)");
  cmd->add_option("--np", opts->np, "Override the experiment's process counts");
  auto* race = cmd->add_option("--race", opts->race,
                  "Race each choice's algorithms within this budget per launch (e.g. 10m) instead of measuring every "
                  "case to the end (the experiment's timing.race)");
  cmd->add_flag("--dry-run", opts->dry_run, "Print the cases and launch commands (Slurm: the job script), run nothing");
  cmd->add_flag("--estimate", opts->estimate,
                "A dry run whose wall-time estimate a pilot calibrates: a few of its cases run now on the platform, "
                "a few seconds of MPI (docs/configuration.md#run-time-estimate)");
  cmd->add_option("--resume", opts->resume,
                  "Finish the run in DIR: run only the cases without an ok result, with DIR's experiment and platform");
  cmd->add_option("--profile", opts->profile,
                  "Load this tuned profile (pico tune) into the library and measure its default with it");
  cmd->add_flag("--no-wait", opts->no_wait, "Slurm: return once the job is submitted (pico collect DIR finishes)");
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress line and no table");
  cmd->add_flag("--wide", opts->wide,
                "Print the table (--dry-run: its cases and launch commands) in full width (default: fitted to 100 "
                "columns)");
  cmd->callback([opts, platform, race, &exit_code] {
    const std::size_t width = opts->wide ? kUnlimitedWidth : kDefaultTableWidth;
    // Before any results directory is made or resumed (support/results_file.hpp).
    keep_results_unwritable_by_others();
    if (opts->estimate &&
        (!opts->resume.empty() || (!opts->experiment.empty() && is_application_experiment(opts->experiment))))
      throw InputError("--estimate", 0, 0,
                       !opts->resume.empty() ? "a resume's dry run has no pilot"
                                             : "an application experiment's dry run has no pilot",
                       "leave out --estimate: --dry-run prints the uncalibrated estimate");
    if (!opts->resume.empty()) {
      if (!opts->experiment.empty() || platform->count() > 0 || !opts->np.empty() || !opts->profile.empty() ||
          race->count() > 0)
        throw InputError("--resume", 0, 0, "--resume takes no experiment, -p, --np, --race or --profile",
                          fmt::format("the run in {} goes on with its own experiment.yaml, platform.yaml and plan.json",
                                      opts->resume));
      if (opts->dry_run) {
        if (is_application_run(opts->resume))
          throw InputError("--dry-run", 0, 0, "an application run's resume has no dry run",
                           "its launches are the variants' rounds without a result: pico report DIR lists them");
        fmt::print("{}", resume_dry_run_text(opts->resume, width));
        return;
      }
      if (is_application_run(opts->resume)) {
        exit_code = print_application_result(resume_application(opts->resume, !opts->quiet), opts->quiet);
        return;
      }
      exit_code = print_result(resume_run(opts->resume, !opts->quiet, !opts->no_wait), opts->quiet, TableStyle::cases, width);
      return;
    }
    if (opts->experiment.empty())
      throw InputError("pico run", 0, 0, "no experiment given", "pico run EXPERIMENT.yaml, or pico run --resume DIR");
    for (int np : opts->np)
      if (np < 1) throw InputError("--np", 0, 0, fmt::format("process count {} is not a positive number", np),
                                    "give one or more process counts >= 1, e.g. --np 2 --np 4");
    if (is_application_experiment(opts->experiment)) {
      if (!opts->profile.empty() || race->count() > 0)
        throw InputError(!opts->profile.empty() ? "--profile" : "--race", 0, 0,
                         "an application experiment names its profiles in its variants and races nothing",
                         "add {name: tuned, profile: FILE} to the experiment's variants");
      ApplicationRunRequest request{load_application_experiment(opts->experiment), resolve_platform(opts->platform),
                                    opts->output, opts->output_dir, !opts->quiet};
      if (!opts->np.empty()) request.experiment.processes = opts->np;
      if (opts->dry_run) {
        fmt::print("{}", application_dry_run_text(request, width));
        return;
      }
      exit_code = print_application_result(run_application(request), opts->quiet);
      return;
    }
    RunRequest request;
    request.experiment = load_experiment(opts->experiment);
    if (!opts->np.empty()) request.experiment.processes = opts->np;
    if (race->count() > 0) {  // given empty (--race ''): refused below, never silently no race
      std::string why;
      const auto budget = parse_duration_s(opts->race, &why);
      if (!budget || *budget <= 0)
        throw InputError("--race", 0, 0, budget ? "the race budget must be longer than zero" : why,
                         "give the measurement time per launch, e.g. --race 10m or --race 90s");
      RaceSpec race = request.experiment.timing.race.value_or(RaceSpec{});  // the experiment's refine stays
      race.budget_s = *budget;
      request.experiment.timing.race = race;
    }
    request.platform = resolve_platform(opts->platform);
    request.output_base = opts->output;
    request.output_dir = opts->output_dir;
    request.progress = !opts->quiet;
    request.wait = !opts->no_wait;
    request.profile = opts->profile;
    request.estimate = opts->estimate;
    exit_code = execute_and_print(request, opts->dry_run || opts->estimate, opts->quiet, TableStyle::cases, width);
  });
}

}  // namespace pico::cli
