// SPDX-License-Identifier: BSD-3-Clause
// A command as a POSIX shell reads it back: the launch lines pico prints, the
// commands in a Slurm script and in report.json, which a user pastes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pico {

// s as one shell word: unchanged where it holds only characters no shell
// treats specially, else in single quotes ('\'' for a quote inside).
std::string shell_quote(const std::string& s);
// argv as one line of shell words.
std::string shell_join(const std::vector<std::string>& argv);
// `head` then argv's words, as shell_join quotes them, over as many lines as
// keep each within `width` columns: a line ends in " \" and the next starts
// with four spaces, so the shell reads one command. A word wider than a line
// has one to itself. For scripts a user reads (the Slurm job script).
std::string shell_join_wrapped(const std::string& head, const std::vector<std::string>& argv, std::size_t width = 100);

}  // namespace pico
