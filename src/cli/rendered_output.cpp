// SPDX-License-Identifier: BSD-3-Clause
#include "cli/rendered_output.hpp"

#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "cli/exit_codes.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/size_text.hpp"
#include "support/terminal.hpp"

namespace pico::cli {

bool RenderedOutput::colour() const { return path.empty() && colour_allowed(stdout); }

void add_output_options(CLI::App* cmd, RenderedOutput& out, const std::vector<std::string>& formats) {
  std::string choices;
  for (const auto& f : formats) choices += (choices.empty() ? "" : " | ") + f;
  cmd->add_option("-f,--format", out.format, choices)->check(CLI::IsMember(formats))->capture_default_str();
  cmd->add_option("-o,--output", out.path, "Write to FILE instead of standard output");
}

void emit_or_complain(const RenderedOutput& out, const std::function<std::string()>& make_text, int& exit_code) {
  std::string text;
  try {
    text = make_text();
  } catch (const InputError& e) {
    std::cerr << e.what() << "\n";
    exit_code = kBadInputExitCode;
    return;
  }
  emit(out, text);
}

void emit(const RenderedOutput& out, const std::string& text) {
  if (out.path.empty())
    fmt::print("{}", text);
  else {
    write_text_file(out.path, text);  // a failed write is a WriteError: exit 3 naming the file
    fmt::print("wrote {} ({}, {})\n", out.path, out.described.empty() ? out.format : out.described, size_text(text.size()));
  }
}

}  // namespace pico::cli
