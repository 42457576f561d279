// Runs a short command without a shell (so no argument is ever parsed as
// shell) and returns what it printed: sbatch, squeue, scontrol, sacct.
#pragma once

#include <string>
#include <vector>

#include "launch/process.hpp"

namespace pico {

struct CommandOutput {
  ExitStatus exit;
  std::string output;  // stdout and stderr together
  bool started = true;  // false: the program was not found
};

// Kills the command after timeout_s.
CommandOutput run_command(const std::vector<std::string>& argv, double timeout_s = 60);

}  // namespace pico
