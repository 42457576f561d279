// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "launch/run.hpp"
#include "reports/fitted_table.hpp"
#include "reports/render.hpp"

namespace pico::cli {

// Runs (or, for a dry run, prints the plan of) a request; prints the result
// table and the report's path. Returns the exit code.
// width: the table's (reports/render.hpp), 100 columns unless --wide.
int execute_and_print(const RunRequest& request, bool dry_run, bool quiet, TableStyle style = TableStyle::cases,
                      std::size_t width = kDefaultTableWidth);

// The table and report path of a finished run; for a submitted job still
// running, its id and directory (the report comes with `pico collect`).
int print_result(const RunResult& result, bool quiet, TableStyle style = TableStyle::cases,
                 std::size_t width = kDefaultTableWidth);

}  // namespace pico::cli
