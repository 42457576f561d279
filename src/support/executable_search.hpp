// SPDX-License-Identifier: BSD-3-Clause
// Finding programs as execvp would: the PATH entries and whether a file can be
// run; and the directory of the running program, where pico's own programs
// and libraries are built and installed beside it.
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

// The directory of this process's executable (/proc/self/exe); empty when it cannot be read.
std::filesystem::path this_program_dir();

}  // namespace pico
