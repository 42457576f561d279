// SPDX-License-Identifier: BSD-3-Clause
// Where a new run's results go, and making that directory: for a sweep
// (launch/run.hpp) and an application experiment (launch/application_run.hpp) alike.
#pragma once

#include <string>

namespace pico {

// `exact` (--dir) where given, else BASE/<platform>/<UTC timestamp>-<random id>.
std::string new_results_dir_path(const std::string& exact, const std::string& base, const std::string& platform);

// Creates `dir` for a new run. InputError (exit 2) when it exists and is not
// empty, or when a file stands where one of its directories should be;
// WriteError when it cannot be made otherwise (/proc, a full disk).
void make_new_results_dir(const std::string& dir);

}  // namespace pico
