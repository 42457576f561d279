#pragma once

#include "launch/run.hpp"

namespace pico::cli {

// Runs (or, for a dry run, prints the plan of) a request; prints the result
// table and the report's path. Returns the exit code.
int execute_and_print(const RunRequest& request, bool dry_run, bool quiet);

}  // namespace pico::cli
