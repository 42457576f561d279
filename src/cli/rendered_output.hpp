// SPDX-License-Identifier: BSD-3-Clause
// The -f/--format and -o/--output options of the verbs that print a rendering
// of results (report, compare), and where the text goes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace pico::cli {

struct RenderedOutput {
  std::string format = "table";  // one of the verb's formats
  std::string path;              // "" for standard output
  // What a written file holds, said after its path ("HTML page of 2 reports"); "" says the format.
  std::string described;
  // Colour in the table: only to a terminal, never with NO_COLOR.
  bool colour() const;
};

void add_output_options(CLI::App* cmd, RenderedOutput& out, const std::vector<std::string>& formats = {"table", "csv", "json"});

// Prints text to standard output, or writes it to out.path and says so on standard output
// ("wrote page.html (HTML page of 1 report, 868.5KiB)"), as export and fit do.
void emit(const RenderedOutput& out, const std::string& text);

// Runs make_text and emits what it returns; an InputError it throws (a report
// that cannot be read, nothing to compare) is printed in the one error format
// (support/input_error.hpp) and sets exit_code to 2. Any other exception is no
// bad input and goes on to main(), which says what it is (cli/exit_codes.hpp).
void emit_or_complain(const RenderedOutput& out, const std::function<std::string()>& make_text, int& exit_code);

}  // namespace pico::cli
