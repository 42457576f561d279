// pico bench COLLECTIVE [--np N] [--sizes 8B:64MiB] [--dtype float32] ...
// An ad-hoc experiment built from flags; it runs exactly like `pico run` and
// its results directory holds the equivalent experiment YAML for re-running.
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "config/error.hpp"
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "config/units.hpp"

namespace pico::cli {

void add_bench(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("bench", "Benchmark one collective without writing an experiment file");
  struct Options {
    std::string collective, sizes = "8B:1MiB", dtype = "float32", op = "sum", backend = "mpi", algorithm = "default";
    std::string platform = "local", output = "results", mode = "latency", time_budget = "1s";
    std::vector<int> np{2};
    bool in_place = false, dry_run = false, quiet = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("collective", opts->collective, "allreduce, bcast, reduce, allgather, gather, scatter, alltoall, "
                                                  "reduce_scatter, sendrecv or barrier")
      ->required();
  cmd->add_option("--np", opts->np, "Process counts")->capture_default_str();
  cmd->add_option("--sizes", opts->sizes, "FROM:TO[:FACTOR] or a comma list, e.g. 8B:64MiB")->capture_default_str();
  cmd->add_option("--dtype", opts->dtype, "Datatype")->capture_default_str();
  cmd->add_option("--op", opts->op, "Reduction operation")->capture_default_str();
  cmd->add_option("--backend", opts->backend, "Backend library")->capture_default_str();
  cmd->add_option("--algorithm", opts->algorithm, "Algorithm")->capture_default_str();
  cmd->add_option("--mode", opts->mode, "latency | throughput")->capture_default_str();
  cmd->add_option("--time-budget", opts->time_budget, "Timed-loop budget per case")->capture_default_str();
  cmd->add_option("-p,--platform", opts->platform, "Platform name or file")->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "Base results directory")->capture_default_str();
  cmd->add_flag("--in-place", opts->in_place, "Use MPI_IN_PLACE");
  cmd->add_flag("--dry-run", opts->dry_run, "Print the cases and launch commands, run nothing");
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress line and no table");
  cmd->callback([opts, &exit_code] {
    // The flags become experiment YAML, parsed by the same validator as files.
    std::string sizes_why;
    if (!parse_size_list(opts->sizes, &sizes_why))
      throw ConfigError("--sizes", 0, 0, fmt::format("bad size list '{}': {}", opts->sizes, sizes_why),
                        "write FROM:TO[:FACTOR] such as 8B:64MiB, or a list such as 8B,4KiB,1MiB");
    const auto sizes = *parse_size_list(opts->sizes);
    // A long budget needs a longer per-case timeout: budget plus a minute for warm-up and validation.
    const double case_timeout_s = parse_duration_s(opts->time_budget).value_or(1.0) + 60.0;
    const std::string yaml = fmt::format(
        "name: bench-{0}\n"
        "collectives: [{0}]\n"
        "sizes: [{1}]\n"
        "dtypes: [{2}]\n"
        "ops: [{3}]\n"
        "processes: [{4}]\n"
        "in_place: {5}\n"
        "backends:\n  - library: {6}\n    algorithms: [{7}]\n"
        "timing: {{mode: {8}, time_budget: {9}, case_timeout: {10}s}}\n",
        opts->collective, fmt::join(sizes, ", "), opts->dtype, opts->op, fmt::join(opts->np, ", "),
        opts->in_place ? "true" : "false", opts->backend, opts->algorithm, opts->mode, opts->time_budget,
        case_timeout_s);
    RunRequest request;
    request.experiment = parse_experiment(yaml, "<pico bench flags>");
    request.platform = resolve_platform(opts->platform);
    request.output_base = opts->output;
    request.progress = !opts->quiet;
    exit_code = execute_and_print(request, opts->dry_run, opts->quiet);
  });
}

}  // namespace pico::cli
