// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "launch/run.hpp"
#include "reports/render.hpp"

namespace pico::cli {

// Runs (or, for a dry run, prints the plan of) a request; prints the result
// table and the report's path. Returns the exit code.
int execute_and_print(const RunRequest& request, bool dry_run, bool quiet, TableStyle style = TableStyle::cases);

// The table and report path of a finished run; for a submitted job still
// running, its id and directory (the report comes with `pico collect`).
int print_result(const RunResult& result, bool quiet, TableStyle style = TableStyle::cases);

}  // namespace pico::cli
