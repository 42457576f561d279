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
  // Colour in the table: only to a terminal, never with NO_COLOR.
  bool colour() const;
};

void add_output_options(CLI::App* cmd, RenderedOutput& out, const std::vector<std::string>& formats = {"table", "csv", "json"});

// Prints text to standard output, or writes it to out.path.
void emit(const RenderedOutput& out, const std::string& text);

// Runs make_text and emits what it returns. An exception it throws is bad
// input, exit_code 2: a ReportInputError prints as "pico: error: WHERE: WHAT"
// with its hint, anything else (a report that cannot be read, nothing to
// compare) as "pico VERB: why".
void emit_or_complain(const char* verb, const RenderedOutput& out, const std::function<std::string()>& make_text,
                      int& exit_code);

}  // namespace pico::cli
