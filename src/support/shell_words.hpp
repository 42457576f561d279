// SPDX-License-Identifier: BSD-3-Clause
// A command as a POSIX shell reads it back: the launch lines pico prints, the
// commands in a Slurm script and in report.json, which a user pastes.
#pragma once

#include <string>
#include <vector>

namespace pico {

// s as one shell word: unchanged where it holds only characters no shell
// treats specially, else in single quotes ('\'' for a quote inside).
std::string shell_quote(const std::string& s);
// argv as one line of shell words.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace pico
