// SPDX-License-Identifier: BSD-3-Clause
// A run on a Slurm platform: write the job script and the launch files,
// submit, follow the job, and collect — record why each unfinished case did
// not finish, add the job to run.json, build the report. slurm.json in the
// results directory lists the run's jobs, so `pico collect` and `--resume`
// can pick up where pico left off.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/platform.hpp"
#include "launch/run.hpp"
#include "plan/plan.hpp"

namespace pico {

struct SlurmRun {
  std::string dir;
  const Plan& plan;  // the cases this job runs
  std::string experiment_name;
  const Platform& platform;
  PlanTarget target;
  nlohmann::json run;  // run.json as it stands
  int first_launch = 0;
};

// Submits; with wait, follows and collects. Without, returns with the job id.
RunResult run_on_slurm(const SlurmRun& request, bool progress, bool wait);

// pico collect DIR: follows the directory's last job until it ends (or, with
// wait false, looks once), then collects it. A local run's directory just gets its report rebuilt.
// Holds DIR's lock (launch/results_lock.hpp) throughout.
RunResult collect_run(const std::string& dir, bool progress, bool wait);

// The directory's last Slurm job has not been collected.
bool slurm_job_uncollected(const std::string& dir);

// slurm.job_name, or pico-<experiment name>.
std::string slurm_job_name(const Platform& platform, const std::string& experiment_name);

}  // namespace pico
