// pico export PROFILE --format F [-o FILE] [--mpich-defaults FILE] [--mpich-library PATH] [--nccl-channels N]
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "export/export_format.hpp"

namespace pico::cli {

void add_export(CLI::App& app, int& exit_code) {
  std::string formats;
  for (const ExportFormat* f : export_formats())
    formats += fmt::format("\n  {:<11} {} ({})", f->name, f->description, f->library);
  auto* cmd = app.add_subcommand("export", "Write a tuned profile in a library's own tuning input; formats:" + formats);
  struct Options {
    std::string profile, format, output;
    ExportOptions options;
    int channels = 0;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("profile", opts->profile, "Profile from pico tune")->required();
  cmd->add_option("-f,--format", opts->format, "Output format (above)")->required();
  cmd->add_option("-o,--output", opts->output, "Write here (default: standard output; how to load it goes to stderr)");
  cmd->add_option("--mpich-defaults", opts->options.mpich_defaults,
                  "mpich-json: MPICH's default selection tree (default: read from the installed libmpich)");
  cmd->add_option("--mpich-library", opts->options.mpich_library, "mpich-json: the libmpich.so.12 to read it from");
  cmd->add_option("--nccl-channels", opts->channels, "nccl-tuner: channels for rules that carry none");
  cmd->callback([opts, &exit_code] {
    const ExportFormat& format = export_format(opts->format);
    if (opts->channels > 0) opts->options.nccl_channels = opts->channels;
    const TunedProfile profile = load_profile(opts->profile);
    const std::string text = export_profile(profile, opts->profile, format, opts->options);
    const std::string how = format.how_to_load(profile, opts->output);
    if (opts->output.empty()) {
      std::cout << text;
      std::cerr << how;
    } else {
      write_text_file(opts->output, text);
      std::cout << fmt::format("wrote {} ({})\n{}", opts->output, format.name, how);
    }
    exit_code = 0;
  });
}

}  // namespace pico::cli
