// SPDX-License-Identifier: BSD-3-Clause
// pico replay WORKLOAD|TRACE [--profile P] [--algorithm COLL=ALG]... -o app.goal [--simulate [--model M]]
//             [--max-output SIZE] [--threads N] [--compute-scale F] [--trace-mpi auto|openmpi|mpich]
// pico replay llm --params 7e9 --bucket 25MB --dp 16 [--tp T --pp P ...] -o app.goal
// pico replay WORKLOAD|TRACE|llm ... --format chakra -o PREFIX
// An application (a workload YAML, traces, or the built-in LLM step), its
// collectives' algorithms chosen, written in a replay format. The verb reads
// the options; the source (simulation/replay_source.hpp) and the formats
// (simulation/replay_format.hpp: GOAL for LogGOPSim, --simulate running it and
// the baseline; Chakra for ASTRA-sim) are the simulation layer's.
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "config/units.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/replay_format.hpp"
#include "simulation/replay_source.hpp"
#include "simulation/trace_reader.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"

namespace pico::cli {
namespace {

struct ReplayCliOptions {
  std::string workload, output, model, loggopsim, profile, unknown = "refuse", max_output = "16GiB", bucket = "25MB", compute = "1s", segment = "64KiB", trace_mpi = "auto", format, unmatched_waits = "refuse", baseline = "atlahs";
  double compute_scale = 1;
  std::vector<std::string> algorithms;
  bool simulate = false;
  int threads = 0;
  LlmStep llm;
};

std::map<Collective, std::string> parse_algorithms(const std::vector<std::string>& items) {
  std::map<Collective, std::string> out;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    const auto c = eq == std::string::npos ? std::nullopt : parse_collective(item.substr(0, eq));
    if (!c) throw InputError("--algorithm", fmt::format("'{}' is not COLLECTIVE=ALGORITHM", item), "e.g. --algorithm allreduce=ring");
    out[*c] = item.substr(eq + 1);
  }
  return out;
}

TraceOptions trace_options(const ReplayCliOptions& o) {
  TraceOptions t;
  t.unknown = o.unknown == "skip" ? UnknownCalls::skip : o.unknown == "list" ? UnknownCalls::list : UnknownCalls::refuse;
  t.mpi = o.trace_mpi == "mpich" ? TraceMpi::mpich : o.trace_mpi == "openmpi" ? TraceMpi::openmpi : TraceMpi::automatic;
  t.threads = o.threads;
  t.unmatched_waits = o.unmatched_waits == "null" ? UnmatchedWaits::null : UnmatchedWaits::refuse;
  return t;
}

// The LLM step's sizes and durations, as given on the command line.
void parse_llm(ReplayCliOptions& o) {
  std::string why;
  const auto bucket = parse_size(o.bucket, &why);
  if (!bucket) throw InputError("--bucket", fmt::format("bad size '{}': {}", o.bucket, why), "e.g. --bucket 25MB");
  o.llm.bucket_bytes = *bucket;
  const auto compute = parse_duration_s(o.compute, &why);
  if (!compute) throw InputError("--compute", fmt::format("bad duration '{}': {}", o.compute, why), "e.g. --compute 1s");
  o.llm.compute_s = *compute;
}

void run(ReplayCliOptions& o) {
  if (o.unknown == "list") {
    if (!is_trace_path(o.workload))
      throw InputError("--unknown", "--unknown list is for a trace directory", "give the directory of pmpi-trace-rank-N.txt");
    std::map<std::string, std::uint64_t> listed;
    load_trace(o.workload, trace_options(o), &listed);
    if (listed.empty()) fmt::print("every MPI function in the traces is one pico replays\n");
    else fmt::print("{} pico does not replay:\n", counted(listed.size(), "MPI function"));
    for (const auto& [name, calls] : listed) fmt::print("  {} ({})\n", name, counted(calls, "call"));
    return;
  }
  if (!(o.compute_scale >= 0 && o.compute_scale <= 1e6))
    throw InputError("--compute-scale", fmt::format("{} is outside [0, 1e6]", o.compute_scale), "e.g. --compute-scale 0.5");
  const ReplayFormat& format = replay_format(o.format);
  if (o.workload == "llm") parse_llm(o);
  const std::unique_ptr<ReplaySource> source =
      open_replay_source({.path = o.workload, .trace = trace_options(o), .llm = o.llm, .compute_scale = o.compute_scale});
  for (const std::string& note : source->notes()) fmt::print(stderr, "pico: note: {}\n", note);
  for (const std::string& line : source->summary()) fmt::print("{}\n", line);
  if (o.output.empty()) throw InputError("-o", "-o FILE is required", std::string(format.output_hint));
  ReplaySettings s;
  s.output = o.output;
  s.model_path = o.model;
  s.model = o.model.empty() ? default_model() : load_model(o.model);
  std::string why;
  s.cap = parse_size(o.max_output, &why);
  if (!s.cap) throw InputError("--max-output", fmt::format("bad size '{}': {}", o.max_output, why), "e.g. --max-output 16GiB");
  const auto segment = parse_size(o.segment, &why);
  if (!segment) throw InputError("--segment-size", fmt::format("bad size '{}': {}", o.segment, why), "e.g. 64KiB");
  s.options = {.reduce_ps_per_byte = s.model.params.reduce_ps_per_byte, .segment_bytes = *segment, .threads = o.threads};
  s.compute_scale = o.compute_scale;
  if (o.simulate && !format.simulates)
    throw InputError("--simulate", fmt::format("--simulate runs LogGOPSim on GOAL, not on --format {}", format.name),
                     "leave out --simulate and run the simulator with the command pico prints");
  if (o.simulate) {
    s.simulator = find_loggopsim(o.loggopsim);
    if (!s.simulator)
      throw InputError(o.loggopsim.empty() ? "--simulate" : "--loggopsim", "LogGOPSim not found",
                       "build it (docs/simulation.md#loggopsim) and give --loggopsim DIR or set PICO_LOGGOPSIM_DIR");
  }
  if (o.baseline == "default" && o.profile.empty())
    throw InputError("--baseline", "'default' is the library default a profile recorded, and no --profile was given",
                     "give --profile profile.json, or leave out --baseline (ATLAHS's fixed algorithms)");
  std::optional<TunedProfile> profile;
  if (!o.profile.empty()) profile = cli::read_profile(o.profile);
  set_replay_choices(s, profile ? &*profile : nullptr, o.profile, o.baseline == "default");
  s.chosen = fixed_choice(parse_algorithms(o.algorithms), s.chosen);
  format.write(*source, s, stdout);
}

}  // namespace

void add_replay(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("replay", "Write an application (workload YAML, liballprof traces or the built-in LLM step) as GOAL with "
                                           "chosen algorithms; --simulate predicts it against the baseline");
  auto o = std::make_shared<ReplayCliOptions>();
  cmd->add_option("workload", o->workload,
                  "Workload YAML file, liballprof traces (their directory, or rank 0's file: pmpi-trace-rank-0.txt), "
                  "or 'llm' for the built-in LLM training step")
      ->required();
  cmd->add_option("-o,--output", o->output,
                  "GOAL file to write; with --format chakra the files' prefix (PREFIX.<rank>.et, PREFIX.system.json, ...); "
                  "not needed with --unknown list");
  std::vector<std::string> formats, described;
  for (const ReplayFormat* f : replay_formats()) {
    formats.emplace_back(f->name);
    described.push_back(fmt::format("{}: {}", f->name, f->description));
  }
  o->format = formats.front();
  cmd->add_option("--format", o->format, fmt::format("{}", fmt::join(described, "; ")))
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
  cmd->add_option("--unknown", o->unknown, "Traces: MPI calls pico does not replay are refused, skipped (their time "
                                           "joins the compute gap) or listed")
      ->check(CLI::IsMember({"refuse", "skip", "list"}))
      ->capture_default_str();
  cmd->add_option("--unmatched-waits", o->unmatched_waits,
                  "Traces: a wait naming no request the trace started (and none a copy could be) is refused, or "
                  "replayed as a wait on MPI_REQUEST_NULL")
      ->check(CLI::IsMember({"refuse", "null"}))
      ->capture_default_str();
  cmd->add_option("--trace-mpi", o->trace_mpi, "Traces: the MPI library they were taken with (its MPI_ANY_SOURCE, "
                                               "MPI_PROC_NULL and request size); auto: MPICH if its world handle, else Open MPI")
      ->check(CLI::IsMember({"auto", "openmpi", "mpich"}))
      ->capture_default_str();
  cmd->add_option("--compute-scale", o->compute_scale, "Multiply every compute gap (0.5: what if compute were 2x faster)")
      ->capture_default_str();
  cmd->add_option("--profile", o->profile, "Tuned profile (pico tune) choosing each call's algorithm by size");
  cmd->add_option("--algorithm", o->algorithms, "COLLECTIVE=ALGORITHM: a reference algorithm for every call of it "
                                                "(over the profile; others: ATLAHS's fixed choice)");
  cmd->add_flag("--simulate", o->simulate, "Simulate it and the baseline in LogGOPSim and print both times");
  cmd->add_option("--baseline", o->baseline,
                  "What --simulate compares with: atlahs (ATLAHS's fixed algorithms) or default (what the library's "
                  "default ran in the --profile's sweep, as the profile records it)")
      ->check(CLI::IsMember({"atlahs", "default"}))
      ->capture_default_str();
  cmd->add_option("--model", o->model, "Model from pico fit (default: ATLAHS's AI parameters)");
  cmd->add_option("--loggopsim", o->loggopsim, "Directory holding txt2bin and LogGOPSim");
  cmd->add_option("--max-output", o->max_output, "Refuse to write a GOAL file larger than this")->capture_default_str();
  cmd->add_option("--segment-size", o->segment, "Segment size of pipelined algorithms")->capture_default_str();
  cmd->add_option("--threads", o->threads, "Ranks formatted at once (0: one per hardware thread)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  auto* llm = cmd->add_option_group("llm", "The built-in LLM step (WORKLOAD = llm; docs/simulation.md)");
  llm->add_option("--params", o->llm.parameters, "Parameters of the model")->capture_default_str();
  llm->add_option("--bucket", o->bucket, "Gradient bucket size (DDP bucket_cap_mb)")->capture_default_str();
  llm->add_option("--dp", o->llm.dp, "Data-parallel degree")->capture_default_str();
  llm->add_option("--tp", o->llm.tp, "Tensor-parallel degree")->capture_default_str();
  llm->add_option("--pp", o->llm.pp, "Pipeline-parallel degree")->capture_default_str();
  llm->add_option("--layers", o->llm.layers, "Transformer layers")->capture_default_str();
  llm->add_option("--hidden", o->llm.hidden, "Hidden size")->capture_default_str();
  llm->add_option("--seq", o->llm.sequence, "Sequence length x micro-batch size (tokens per micro-batch)")->capture_default_str();
  llm->add_option("--micro-batches", o->llm.micro_batches, "Micro-batches per step")->capture_default_str();
  llm->add_option("--compute", o->compute, "Forward + backward compute per step and rank")->capture_default_str();
  llm->add_option("--grad-bytes", o->llm.gradient_bytes, "Bytes per gradient element")->capture_default_str();
  cmd->callback([o, &exit_code] {
    run(*o);
    exit_code = 0;
  });
}

}  // namespace pico::cli
