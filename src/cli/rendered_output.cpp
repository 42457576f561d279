#include "cli/rendered_output.hpp"

#include <fstream>

#include <fmt/format.h>

namespace pico::cli {

void add_output_options(CLI::App* cmd, RenderedOutput& out) {
  cmd->add_option("-f,--format", out.format, "table | csv | json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", out.path, "Write to FILE instead of standard output");
}

void emit(const RenderedOutput& out, const std::string& text) {
  if (out.path.empty())
    fmt::print("{}", text);
  else
    std::ofstream(out.path) << text;
}

}  // namespace pico::cli
