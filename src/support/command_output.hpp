// SPDX-License-Identifier: BSD-3-Clause
// Runs a short command without a shell (so no argument is ever parsed as
// shell) and returns what it printed: sbatch, squeue, scontrol, sacct.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace pico {

struct CommandOutput {
  ExitStatus exit;
  std::string output;  // stdout and stderr together
  bool started = true;  // false: the program was not found
};

// A verb stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE (once it installed
// install_interrupt_handlers, support/interrupt.hpp): thrown where it was
// waiting, so that its temporary files are removed as the stack unwinds.
// pico exits 130 with it.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted by a signal; nothing was written") {}
};
inline constexpr int kInterruptedExitCode = 130;

// Throws Interrupted once a handled signal has arrived.
void throw_if_interrupted();

// Kills the command after timeout_s, or when a handled signal arrives (then throws Interrupted).
CommandOutput run_command(const std::vector<std::string>& argv, double timeout_s = 60);

}  // namespace pico
