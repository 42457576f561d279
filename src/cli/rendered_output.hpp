// The -f/--format and -o/--output options of the verbs that print a rendering
// of results (report, compare), and where the text goes.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace pico::cli {

struct RenderedOutput {
  std::string format = "table";  // table | csv | json
  std::string path;              // "" for standard output
};

void add_output_options(CLI::App* cmd, RenderedOutput& out);

// Prints text to standard output, or writes it to out.path.
void emit(const RenderedOutput& out, const std::string& text);

}  // namespace pico::cli
