// SPDX-License-Identifier: BSD-3-Clause
// The `slurm:` map of a platform: what the batch allocation asks for and
// what the job script does before the first job step.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/yaml_reader.hpp"

namespace pico {

struct SlurmSpec {
  std::string partition;
  std::string account;
  std::string qos;
  std::string time = "00:30:00";  // the allocation's time limit (sbatch --time)
  std::optional<int> nodes;       // unset: as many as the largest process count needs
  int ntasks_per_node = 1;
  std::optional<int> cpus_per_task;
  std::optional<int> gpus_per_node;
  bool exclusive = false;
  std::string constraint;
  std::string reservation;
  std::string job_name;  // "" = pico-<experiment name>
  std::string comment;
  std::vector<std::string> extra_sbatch;  // whole options, e.g. "--mem=0"
  std::vector<std::string> modules;       // `module load` each, in order
  std::vector<std::string> setup;         // shell commands run as written, before the first step
  int signal_before_limit_s = 60;         // USR1 this long before the time limit stops the job cleanly

  // Where `nodes` and `ntasks_per_node` were written, for plan-time errors.
  std::string file;
  int nodes_line = 0, nodes_column = 0;
};

// Reads and checks the map. Values end up in #SBATCH lines and the job
// script, so anything that cannot be written there literally (a newline, a
// NUL) is rejected here, with the place it was written.
SlurmSpec parse_slurm(const yaml::Value& v);

// The mapping keys, for did-you-mean hints and the docs.
const std::vector<std::string>& slurm_keys();

}  // namespace pico
