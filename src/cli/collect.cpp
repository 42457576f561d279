// SPDX-License-Identifier: BSD-3-Clause
// pico collect DIR [--no-wait]: finish a run whose Slurm job was submitted
// with --no-wait (or whose pico was stopped while following it): wait for the
// job, record what did not finish, write report.json.
#include <memory>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "launch/slurm_run.hpp"

namespace pico::cli {

void add_collect(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("collect", "Wait for a run's Slurm job and write its report");
  struct Options {
    std::string dir;
    bool no_wait = false, quiet = false, wide = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("dir", opts->dir, "Results directory of the run")->required()->check(CLI::ExistingDirectory);
  cmd->add_flag("--no-wait", opts->no_wait, "Look once: collect if the job has ended, else say its state");
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress line and no table");
  cmd->add_flag("--wide", opts->wide, "Print the table in full width (default: fitted to 100 columns)");
  cmd->callback([opts, &exit_code] {
    exit_code = print_result(collect_run(opts->dir, !opts->quiet, !opts->no_wait), opts->quiet, TableStyle::cases,
                             opts->wide ? kUnlimitedWidth : kDefaultTableWidth);
  });
}

}  // namespace pico::cli
