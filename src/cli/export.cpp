// SPDX-License-Identifier: BSD-3-Clause
// pico export PROFILE --format F [-o FILE] [--mpich-defaults FILE] [--mpich-library PATH] [--nccl-channels N]
//                     [--model M] [--npus N]
// The libraries' formats are the table in src/export/; the simulators'
// (astra-sim, schedgen2) come from the simulation layer, above export.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "export/export_format.hpp"
#include "simulation/simulator_exports.hpp"

namespace pico::cli {
namespace {

constexpr const char* kSimulatorFormats =
    "\n  astra-sim   ASTRA-sim 2.x system JSON, network YAML and memory JSON (-o DIR; --model, --npus)"
    "\n  schedgen2   Schedgen2's --ptrn-config table (JSON)";

// The file's text to standard output (how to load it to stderr), or to
// `output` with what was written and how to load it on standard output.
void emit(const std::string& output, std::string_view format, const std::string& text, const std::string& how) {
  if (output.empty()) {
    std::cout << text;
    std::cerr << how;
  } else {
    write_text_file(output, text);
    std::cout << fmt::format("wrote {} ({})\n{}", output, format, how);
  }
}

// Schedgen2 (spcl/LogGOPSim src/Schedgen2/mpi_colls.py) reads a per-size
// algorithm table; ranges it has no algorithm for are listed on stderr.
void export_schedgen2(const TunedProfile& profile, const std::string& profile_path, const std::string& output) {
  std::vector<std::string> skipped;
  const std::string text = schedgen2_ptrn_config(profile, profile_path, &skipped).dump(2) + "\n";
  for (const std::string& why : skipped) std::cerr << "not expressed: " << why << "\n";
  emit(output, "schedgen2", text,
       fmt::format("Load it in Schedgen2: python3 mpi_colls.py ... --ptrn-config {}\n", output.empty() ? "FILE" : output));
}

// ASTRA-sim takes three files: they go into the directory -o names.
void export_astra_sim(const TunedProfile& profile, const std::string& profile_path, const std::string& output,
                      const std::string& model_path, int npus) {
  if (output.empty())
    throw InputError("--output", "--format astra-sim writes three files", "give a directory: -o astra-inputs/");
  if (npus == 0)
    for (const ProfileRule& rule : profile.rules) npus = std::max(npus, rule.comm_size);
  const LogGPModel model = model_path.empty() ? default_model() : load_model(model_path);
  const AstraSimInputs in = astra_sim_inputs(profile, profile_path, model, npus);
  const std::filesystem::path dir(output);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(output, "cannot create the directory: " + ec.message(), "give a directory you can write");
  write_text_file((dir / "system.json").string(), in.system.dump(2) + "\n");
  write_text_file((dir / "network.yml").string(), in.network_yaml);
  write_text_file((dir / "memory.json").string(), in.memory.dump(2) + "\n");
  for (const std::string& note : in.notes) std::cout << "note: " << note << "\n";
  std::cout << fmt::format(
      "wrote {0}/system.json, {0}/network.yml, {0}/memory.json (astra-sim, {1} NPUs)\n"
      "Run ASTRA-sim with them: --system-configuration={0}/system.json --network-configuration={0}/network.yml\n"
      "  --remote-memory-configuration={0}/memory.json --workload-configuration=YOUR_WORKLOAD\n",
      output, npus);
}

}  // namespace

void add_export(CLI::App& app, int& exit_code) {
  std::string formats;
  for (const ExportFormat* f : export_formats())
    formats += fmt::format("\n  {:<11} {} ({})", f->name, f->description, f->library);
  auto* cmd = app.add_subcommand(
      "export", "Write a tuned profile in a library's own tuning input or a simulator's; formats:" + formats +
                    kSimulatorFormats);
  struct Options {
    std::string profile, format, output;
    ExportOptions options;
    int channels = 0;
    std::string model;
    int npus = 0;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("profile", opts->profile, "Profile from pico tune")->required();
  cmd->add_option("-f,--format", opts->format, "Output format (above)")->required();
  cmd->add_option("-o,--output", opts->output, "Write here (default: standard output; how to load it goes to stderr)");
  cmd->add_option("--mpich-defaults", opts->options.mpich_defaults,
                  "mpich-json: MPICH's default selection tree (default: read from the installed libmpich)");
  cmd->add_option("--mpich-library", opts->options.mpich_library, "mpich-json: the libmpich.so.12 to read it from");
  cmd->add_option("--nccl-channels", opts->channels, "nccl-tuner: channels for rules that carry none (1 to 64)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--model", opts->model, "astra-sim: the model (pico fit) for bandwidth and latency (default: ATLAHS AI)");
  cmd->add_option("--npus", opts->npus, "astra-sim: NPUs in the network (default: the profile's largest communicator)")
      ->check(CLI::Range(1, 1 << 24));
  cmd->callback([opts, &exit_code] {
    if (opts->format == "schedgen2" || opts->format == "astra-sim") {
      const TunedProfile profile = load_profile(opts->profile);
      if (opts->format == "schedgen2")
        export_schedgen2(profile, opts->profile, opts->output);
      else
        export_astra_sim(profile, opts->profile, opts->output, opts->model, opts->npus);
      exit_code = 0;
      return;
    }
    const ExportFormat& format = export_format(opts->format);
    if (opts->channels > 0) opts->options.nccl_channels = opts->channels;
    const TunedProfile profile = load_profile(opts->profile);
    const std::string text = export_profile(profile, opts->profile, format, opts->options);
    emit(opts->output, format.name, text, format.how_to_load(profile, opts->output));
    exit_code = 0;
  });
}

}  // namespace pico::cli
