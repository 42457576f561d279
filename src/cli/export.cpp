// SPDX-License-Identifier: BSD-3-Clause
// pico export PROFILE --format F [-o FILE|DIR] [the format's own flags]
// One registry: the libraries' formats (src/export/) and the simulators'
// (src/simulation/simulator_exports.cpp, above export), each declaring its
// name, description, flags and writer; the help and the flags come from them.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/format_flags.hpp"
#include "cli/read_report.hpp"
#include "export/export_format.hpp"
#include "simulation/simulator_exports.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/shell_words.hpp"

namespace pico::cli {
namespace {

// Every format `pico export` offers, libraries' first.
const std::vector<const ExportFormat*>& all_formats() {
  static const std::vector<const ExportFormat*> formats = [] {
    std::vector<const ExportFormat*> all = export_formats();
    for (const ExportFormat* f : simulator_export_formats()) all.push_back(f);
    return all;
  }();
  return formats;
}

// A single file to standard output (how to load it to stderr) or to
// `output`; several files into the directory `output`. Notes go to stderr.
void emit(const ExportFormat& format, const TunedProfile& profile, const FormatArgs& args, const ExportOutput& out,
          const std::string& output) {
  for (const std::string& note : out.notes) std::cerr << note << "\n";
  // The lines are commands to paste: the path in them quoted as a shell word (a space or `$(...)` in -o stays a name).
  const std::string how = format.how_to_load(profile, args, output.empty() ? output : shell_quote(output));
  if (!format.directory) {
    const std::string& text = out.files.front().second;
    if (output.empty()) {
      std::cout << text;
      std::cerr << how;
    } else {
      write_text_file(output, text);
      std::cout << fmt::format("wrote {} ({})\n{}", output, format.name, how);
    }
    return;
  }
  const std::filesystem::path dir(output);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(output, "cannot create the directory: " + ec.message(), "give a directory you can write");
  std::string written;
  for (const auto& [name, text] : out.files) {
    write_text_file((dir / name).string(), text);
    written += fmt::format("{}{}", written.empty() ? "" : ", ", (dir / name).string());
  }
  std::cout << fmt::format("wrote {} ({})\n{}", written, format.name, how);
}

}  // namespace

void add_export(CLI::App& app, int& exit_code) {
  std::string formats;
  for (const ExportFormat* f : all_formats())
    formats += fmt::format("\n  {:<11} {}{}", f->name, f->description,
                           f->library.empty() ? std::string(" (simulator)") : fmt::format(" ({})", f->library));
  auto* cmd = app.add_subcommand(
      "export", "Write a tuned profile in a library's own tuning input or a simulator's; formats:" + formats);
  struct Options {
    std::string profile, format, output;
    std::shared_ptr<GivenFlags> flags = std::make_shared<GivenFlags>();
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("profile", opts->profile, "Profile from pico tune")->required();
  cmd->add_option("-f,--format", opts->format, "Output format (above)")->required();
  cmd->add_option("-o,--output", opts->output,
                  "Write here (default: standard output; how to load it goes to stderr); a directory for formats "
                  "that write several files");
  add_format_flags(cmd, all_formats(), opts->flags);
  cmd->callback([opts, &exit_code] {
    const ExportFormat& format = export_format(opts->format, all_formats());
    const FormatArgs args = format_args(format, all_formats(), *opts->flags);
    if (format.directory && opts->output.empty())
      throw InputError("--output", fmt::format("--format {} writes several files", format.name),
                       fmt::format("give a directory: -o {}-inputs/", format.name));
    const TunedProfile profile = cli::read_profile(opts->profile);
    emit(format, profile, args, export_profile(profile, opts->profile, format, args), opts->output);
    exit_code = 0;
  });
}

}  // namespace pico::cli
