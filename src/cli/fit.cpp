// SPDX-License-Identifier: BSD-3-Clause
// pico fit REPORT -o model.json [--loggopsim DIR] [--reduce-ps-per-byte X] [--eager-limit B] [--threads N]
// Fits a LogGP model (src/simulation/fit.hpp) to a report's sendrecv and
// reference-algorithm cases and writes it as pico-model/1 JSON.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "config/units.hpp"
#include "launch/executor.hpp"
#include "simulation/fit.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/interrupt.hpp"

namespace pico::cli {

void add_fit(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("fit", "Fit a LogGP model (L, o, G, O, S, size bands, exchange factor, reduction cost) to a report, for simulators");
  struct Options {
    std::string report, output, loggopsim;
    std::string eager_limit = "library";
    double reduce_ps_per_byte = 250;
    int threads = 0;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("report", opts->report, "Results directory or report.json with sendrecv (and reference) cases")
      ->required();
  cmd->add_option("-o,--output", opts->output, "Model file to write (pico-model/1 JSON)")->required();
  cmd->add_option("--loggopsim", opts->loggopsim,
                  "Directory holding txt2bin and LogGOPSim (default: $PICO_LOGGOPSIM_DIR, then PATH)");
  cmd->add_option("--reduce-ps-per-byte", opts->reduce_ps_per_byte,
                  "Reduction cost where the report cannot give it (ps per byte)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--eager-limit", opts->eager_limit,
                  "The MPI library's eager limit for S: BYTES, 'library' (ask it: Open MPI's ompi_info, when the "
                  "same version as the report's) or 'data' (where the sendrecv times jump)")
      ->capture_default_str();
  cmd->add_option("--threads", opts->threads, "Simulations at once (0: one per hardware thread)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] {
    // Ctrl-C or kill stops the simulations by an exception, so that their /tmp/pico-sim-* go with the stack.
    install_interrupt_handlers();
    const nlohmann::json report = read_report(opts->report, kMaxJsonFileBytesWithin2GB);
    FitOptions options;
    options.simulator = find_loggopsim(opts->loggopsim);
    options.reduce_ps_per_byte = opts->reduce_ps_per_byte;
    options.threads = opts->threads;
    if (opts->eager_limit == "data") {
      options.ask_library = false;
    } else if (opts->eager_limit != "library") {
      const auto bytes = parse_size(opts->eager_limit);
      if (!bytes || *bytes < 1 || *bytes > static_cast<std::uint64_t>(kMaxLogGOPSimParameter))
        throw InputError("--eager-limit", fmt::format("'{}' is neither a size of 1 B to 2 GiB nor library or data",
                                                      opts->eager_limit),
                         "e.g. --eager-limit 64KiB (Open MPI's btl_tcp_eager_limit), library or data");
      options.eager_limit = *bytes;
    }
    if (!opts->loggopsim.empty() && !options.simulator)
      throw InputError("--loggopsim", fmt::format("no txt2bin and LogGOPSim in {}", opts->loggopsim),
                       "build txt2bin and LogGOPSim from https://github.com/spcl/LogGOPSim (src/LogGOPSim; "
                       "docs/simulation.md#loggopsim says how) and give that directory");
    const FitOutcome fit = fit_model(report, opts->report, options);
    // A file that cannot be written is exit 3 with the reason, as for every verb.
    write_text_file(opts->output, to_json(fit.model).dump(1) + "\n");
    const LogGPParams& p = fit.model.params;
    fmt::print("model of {} ({}, {}): L {:.3f} us, o {:.3f} us, g {:.3f} us, G {:.4f} ns/B ({:.3f} GB/s), "
               "O {:.4f} ns/B, S {}, reduction {:.1f} ps/B, exchange factor {:.2f}\n",
               fit.model.platform, fit.model.library, fit.model.scope, p.L * 1e-6, p.o * 1e-6, p.g * 1e-6, p.G * 1e-3,
               p.G > 0 ? 1e3 / static_cast<double>(p.G) : 0.0, p.O * 1e-3,
               p.S >= kMaxLogGOPSimParameter ? std::string("unbounded") : fmt::format("{} B", p.S), p.reduce_ps_per_byte,
               p.exchange_factor);
    for (const SizeBand& b : p.bands)
      fmt::print("  band up to {:>8}: L {:.3f} us, o {:.3f} us, G {:.4f} ns/B\n", format_size(b.up_to), b.L * 1e-6,
                 b.o * 1e-6, b.G * 1e-3);
    fmt::print("fit error: sendrecv {} points, median {:.1f}%, max {:.1f}%", fit.model.p2p.points,
               100 * fit.model.p2p.median_rel, 100 * fit.model.p2p.max_rel);
    if (fit.model.collectives.points)
      fmt::print("; reference collectives {} points, median {:.1f}%, max {:.1f}%", fit.model.collectives.points,
                 100 * fit.model.collectives.median_rel, 100 * fit.model.collectives.max_rel);
    fmt::print("\n");
    for (const std::string& note : fit.notes) fmt::print("note: {}\n", note);
    fmt::print("wrote {}\n", opts->output);
    exit_code = 0;
  });
}

}  // namespace pico::cli
