// SPDX-License-Identifier: BSD-3-Clause
// One function per verb: registers its options on the app and, when chosen,
// runs it and stores its exit code (0 ok, 1 a case failed, 2 bad input).
#pragma once

#include <CLI/CLI.hpp>

namespace pico::cli {

void add_run(CLI::App& app, int& exit_code);
void add_collect(CLI::App& app, int& exit_code);
void add_bench(CLI::App& app, int& exit_code);
void add_validate(CLI::App& app, int& exit_code);
void add_report(CLI::App& app, int& exit_code);
void add_list(CLI::App& app, int& exit_code);
void add_schedule(CLI::App& app, int& exit_code);
void add_compare(CLI::App& app, int& exit_code);
void add_tune(CLI::App& app, int& exit_code);
void add_export(CLI::App& app, int& exit_code);
void add_fit(CLI::App& app, int& exit_code);
void add_predict(CLI::App& app, int& exit_code);
void add_replay(CLI::App& app, int& exit_code);

}  // namespace pico::cli
