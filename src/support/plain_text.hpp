// SPDX-License-Identifier: BSD-3-Clause
// The one rule for free text that pico writes into another program's input
// (a library's tuning file, a simulator's configuration) or into its own JSON
// records: it is UTF-8, and a free-text field is one line of printable text.
// A line break in a profile's platform would start a rule of Open MPI's
// rules file; a byte that is not UTF-8 cannot be written as JSON at all.
// Such text is refused where it is read (the file, and line and column or
// JSON path), never escaped on the way out, so that what a file says and what
// pico wrote from it are the same text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pico {

struct TextProblem {
  std::size_t byte = 0;  // offset of the first offending byte
  std::string what;      // "is not valid UTF-8", "holds a line break", ...
};

// The first byte where text stops being valid UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF included), or nullopt.
std::optional<TextProblem> utf8_problem(std::string_view text);

// The same, or the first control character (C0 with tab and line breaks,
// DEL, C1): nullopt when text is one line of printable UTF-8.
std::optional<TextProblem> one_line_problem(std::string_view text);

}  // namespace pico
