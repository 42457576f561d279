// SPDX-License-Identifier: BSD-3-Clause
// The one error pico reports for input it cannot use (a file, a flag, a
// report, a name): exit code 2, printed in one format everywhere,
//
//   pico: error: WHERE: WHAT
//     hint: WHAT TO DO
//
// where WHERE is a file with its line and column when known (editors and
// terminals jump there), or the flag or verb the input came through.
#pragma once

#include <stdexcept>
#include <string>

namespace pico {

struct InputError : std::runtime_error {
  // where: a file, or a flag such as "--sizes", or "pico list". line and
  // column are 1-based; 0 means "not known" (the message then names only where).
  InputError(std::string where, int line, int column, std::string message, std::string hint = {});
  InputError(std::string where, std::string message, std::string hint = {})
      : InputError(std::move(where), 0, 0, std::move(message), std::move(hint)) {}

  std::string file;  // WHERE
  int line = 0;
  int column = 0;
  std::string message;
  std::string hint;  // what to do about it, e.g. "did you mean 'sizes'?"
};

// text with control characters shown escaped (\n, \t, \xNN), so that a
// message quoting input stays on its line and cannot drive the terminal.
std::string printable(const std::string& text);

// The one format, for errors pico meets outside an InputError (a verb's own
// failure): "pico: error: WHERE: WHAT" and, when given, "\n  hint: HINT".
std::string render_error(const std::string& where, const std::string& message, const std::string& hint = {});

}  // namespace pico
