// SPDX-License-Identifier: BSD-3-Clause
// Finding programs as execvp would: the PATH entries and whether a file can be run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pico {

// A regular file this process may execute.
bool is_executable_file(const std::filesystem::path& path);

// $PATH split at ':', in order, empty entries kept ("" means the current
// directory to execvp; a caller that should not search it skips them).
std::vector<std::string> path_entries();

}  // namespace pico
