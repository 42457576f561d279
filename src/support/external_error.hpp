// SPDX-License-Identifier: BSD-3-Clause
// A failure outside pico and outside the user's input: a program pico runs
// (LogGOPSim, txt2bin, sbatch) failed or is missing, or the system refused
// what pico asked of it (fork, a pipe, a temporary file, a lock). pico exits
// with its own code for it, so that it reads neither as bad input (2) nor as
// a bug in pico (70); docs/configuration.md#exit-codes.
#pragma once

#include <stdexcept>
#include <string>

namespace pico {

inline constexpr int kExternalErrorExitCode = 4;

struct ExternalError : std::runtime_error {
  explicit ExternalError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace pico
