// SPDX-License-Identifier: BSD-3-Clause
// The sbatch script for one run: one allocation, one job step per launch
// group, each step started the way the local launcher starts a launch.
// Every value from the platform is quoted, so none can run as a command.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/platform.hpp"
#include "launch/slurm_placement.hpp"
#include "plan/plan.hpp"

namespace pico {

struct SlurmStep {
  int launch = 0;  // writes launch-<launch>.json/.log/.info.json
  std::size_t cases = 0;
  StepPlacement placement;
  std::map<std::string, std::string> env;  // the launch group's pre-MPI_Init variables
  std::vector<std::string> argv;           // srun ... pico-worker --launch ... --out DIR
};

struct SlurmJobScript {
  std::string job_name;
  std::string dir;  // absolute results directory: the job's working directory
  Allocation allocation;
  std::vector<SlurmStep> steps;
};

// One step per launch group, numbered from first_launch. Throws InputError
// when a group's process count does not fit the platform's allocation.
SlurmJobScript slurm_job_script(const Plan& plan, const Platform& platform, const std::string& mpi_library,
                                const std::string& job_name, const std::string& dir, int first_launch);

// The script's text (job.sbatch).
std::string sbatch_script_text(const SlurmJobScript& job, const Platform& platform);

// A value for an #SBATCH line. sbatch reads those lines itself (no shell):
// inside quotes a backslash still escapes, so both ' and \ are escaped.
std::string sbatch_quote(const std::string& value);

}  // namespace pico
