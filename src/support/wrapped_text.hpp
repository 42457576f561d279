// SPDX-License-Identifier: BSD-3-Clause
// Prose in lines of at most a width (issue 65: tables fitted to 100 columns
// sat among 170- and 240-column lines of warnings, reproducibility and
// drift): the one wrapping rule every view of pico uses for its sentences.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

// The columns pico's prose and tables take unless --wide (docs/report.md#width).
inline constexpr std::size_t kProseWidth = 100;

// Text broken at spaces into lines of at most width columns, each ended by a
// newline; each line after the first begins with `indent` (counted in the
// width). A word longer than the line stays whole; the text's own line
// breaks are kept, and one at its end is not doubled.
std::string wrapped(std::string_view text, std::size_t width, std::string_view indent = "");

// A shell command of these words (each quoted already) on lines of at most
// width columns, broken between words only, each line that goes on ended by
// " \" so that the lines paste into a shell as the one command (issue 65: a
// dry run's launch commands took 191 columns). The first line begins with
// `first`, the others with `indent`; a word longer than the line stays whole.
std::string wrapped_command(std::string_view first, const std::vector<std::string>& words, std::size_t width,
                            std::string_view indent);

// "pico: warning: TEXT", wrapped to kProseWidth, its further lines indented
// by two spaces as an error's hint lines are.
std::string warning_text(std::string_view text);

}  // namespace pico
