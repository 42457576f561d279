// pico replay WORKLOAD [--profile P] [--algorithm COLL=ALG]... -o app.goal [--simulate [--model M]]
//             [--max-output SIZE] [--threads N]
// pico replay llm --params 7e9 --bucket 25MB --dp 16 [--tp T --pp P ...] -o app.goal
// An application as one GOAL program (src/simulation/replay.hpp), its
// collectives expanded by the chosen reference algorithms; --simulate runs
// it and the baseline (ATLAHS's fixed algorithms) through LogGOPSim.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "config/units.hpp"
#include "core/input_error.hpp"
#include "reports/text_table.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/profile_choice.hpp"
#include "simulation/replay.hpp"
#include "simulation/trace_reader.hpp"

namespace pico::cli {
namespace {

struct ReplayCliOptions {
  std::string workload, output, model, loggopsim, profile, unknown = "refuse", max_output = "16GiB", bucket = "25MB", compute = "1s", segment = "64KiB";
  std::vector<std::string> algorithms;
  bool simulate = false;
  int threads = 0;
  LlmStep llm;
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

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

Workload workload_of(ReplayCliOptions& o) {
  if (std::filesystem::is_directory(o.workload)) {
    const UnknownCalls policy = o.unknown == "skip" ? UnknownCalls::skip : o.unknown == "list" ? UnknownCalls::list
                                                                                                 : UnknownCalls::refuse;
    return load_trace_workload(o.workload, policy, nullptr, o.threads);
  }
  if (o.workload != "llm") return load_workload_yaml(o.workload);
  std::string why;
  const auto bucket = parse_size(o.bucket, &why);
  if (!bucket) throw InputError("--bucket", fmt::format("bad size '{}': {}", o.bucket, why), "e.g. --bucket 25MB");
  o.llm.bucket_bytes = *bucket;
  const auto compute = parse_duration_s(o.compute, &why);
  if (!compute) throw InputError("--compute", fmt::format("bad duration '{}': {}", o.compute, why), "e.g. --compute 1s");
  o.llm.compute_s = *compute;
  return llm_step_workload(o.llm);
}

// Which algorithm each (collective, group size, bytes) of the workload got, and how many calls.
void print_choices(const Workload& w, const std::vector<std::string>& algorithms) {
  std::map<std::tuple<Collective, int, std::uint64_t, std::string>, std::uint64_t> calls;
  for (std::size_t i = 0; i < w.calls.size(); ++i)
    if (w.calls[i].kind == CallKind::collective)
      ++calls[{w.calls[i].collective, w.partitions[static_cast<std::size_t>(w.calls[i].partition)].group_size,
               w.calls[i].bytes, algorithms[i]}];
  std::size_t shown = 0;
  for (const auto& [key, n] : calls) {
    if (++shown > 12) {
      fmt::print("  ... and {} more\n", calls.size() - 12);
      break;
    }
    const auto& [c, np, bytes, algorithm] = key;
    fmt::print("  {} {} on {} ranks: {} ({} calls per iteration)\n", name(c), size_text(bytes), np, algorithm, n);
  }
}

// Writes the GOAL to path, saying first how big it will be; refuses past the cap.
double write_goal_file(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& ro,
                       const std::string& path, std::optional<std::uint64_t> cap) {
  const std::uint64_t estimate = estimate_replay_bytes(w, algorithms, ro);
  fmt::print("{}: about {} of GOAL for {} ranks, {} communication calls\n", path, size_text(estimate), w.ranks,
             w.communication_calls());
  if (cap && estimate > *cap)
    throw InputError("--max-output", fmt::format("{} would be about {}, over the cap of {}", path, size_text(estimate), size_text(*cap)),
                     "raise --max-output, or replay fewer iterations or ranks");
  const auto start = std::chrono::steady_clock::now();
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path, "cannot open for writing", "check the directory exists and is writable");
  write_replay_goal(w, algorithms, ro, out);
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", path));
  return seconds_since(start);
}

void run(ReplayCliOptions& o) {
  if (o.unknown == "list") {
    if (!std::filesystem::is_directory(o.workload))
      throw InputError("--unknown", "--unknown list is for a trace directory", "give the directory of pmpi-trace-rank-N.txt");
    std::map<std::string, std::uint64_t> listed;
    load_trace_workload(o.workload, UnknownCalls::list, &listed, o.threads);
    fmt::print("{} MPI function(s) pico does not replay{}\n", listed.size(), listed.empty() ? "" : ":");
    for (const auto& [name, calls] : listed) fmt::print("  {} ({} calls)\n", name, calls);
    return;
  }
  const Workload w = workload_of(o);
  if (o.output.empty()) throw InputError("-o", "-o FILE is required", "e.g. -o app.goal");
  const LogGPModel model = o.model.empty() ? default_model() : load_model(o.model);
  std::string why;
  const auto cap = parse_size(o.max_output, &why);
  if (!cap) throw InputError("--max-output", fmt::format("bad size '{}': {}", o.max_output, why), "e.g. --max-output 16GiB");
  const auto segment = parse_size(o.segment, &why);
  if (!segment) throw InputError("--segment-size", fmt::format("bad size '{}': {}", o.segment, why), "e.g. 64KiB");
  const ReplayOptions ro{.reduce_ps_per_byte = model.params.reduce_ps_per_byte, .segment_bytes = *segment, .threads = o.threads};
  std::optional<LogGOPSimTools> tools;
  if (o.simulate) {
    tools = find_loggopsim(o.loggopsim);
    if (!tools)
      throw InputError(o.loggopsim.empty() ? "--simulate" : "--loggopsim", "LogGOPSim not found",
                       "build it (e.g. ../shared/peers/build-loggopsim.sh DIR) and give --loggopsim DIR");
  }
  AlgorithmChoice base = atlahs_choice();
  if (!o.profile.empty()) {
    const TunedProfile profile = load_profile(o.profile);
    base = profile_choice(profile, load_reference_equivalents(profile.library.name, o.profile), o.profile, base);
  }
  const AlgorithmChoice chosen = fixed_choice(parse_algorithms(o.algorithms), base);
  struct Variant {
    std::string label, path;
    std::vector<std::string> algorithms;
  };
  std::vector<Variant> variants{{o.profile.empty() ? "chosen" : "profile", o.output, choose_algorithms(w, chosen)}};
  print_choices(w, variants.front().algorithms);
  if (o.simulate) variants.push_back({"baseline (ATLAHS's fixed algorithms)", o.output + ".baseline.goal",
                                      choose_algorithms(w, atlahs_choice())});
  std::vector<double> times;
  for (const Variant& v : variants) {
    const double generation = write_goal_file(w, v.algorithms, ro, v.path, cap);
    fmt::print("  written in {:.2f} s\n", generation);
    if (!tools) continue;
    const auto start = std::chrono::steady_clock::now();
    const double t = static_cast<double>(simulate_goal(*tools, v.path, model.params, 3600)) * 1e-12;
    fmt::print("  {}: predicted {:.6f} s (LogGOPSim, {:.2f} s to simulate)\n", v.label, t, seconds_since(start));
    times.push_back(t);
  }
  if (times.size() == 2)
    fmt::print("{} vs baseline: {:.6f} s vs {:.6f} s ({:+.1f}%), model {}\n", variants.front().label, times[0], times[1],
               100 * (times[0] / times[1] - 1), o.model.empty() ? "built-in (ATLAHS AI)" : o.model);
}

}  // namespace

void add_replay(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("replay", "Write an application (workload YAML, liballprof traces or the built-in LLM step) as GOAL with "
                                           "chosen algorithms; --simulate predicts it against the baseline");
  auto o = std::make_shared<ReplayCliOptions>();
  cmd->add_option("workload", o->workload,
                  "Workload YAML file, a directory of liballprof traces (pmpi-trace-rank-N.txt), or 'llm' for the "
                  "built-in LLM training step")
      ->required();
  cmd->add_option("-o,--output", o->output, "GOAL file to write (not needed with --unknown list)");
  cmd->add_option("--unknown", o->unknown, "Traces: MPI calls pico does not replay are refused, skipped (their time "
                                           "joins the compute gap) or listed")
      ->check(CLI::IsMember({"refuse", "skip", "list"}))
      ->capture_default_str();
  cmd->add_option("--profile", o->profile, "Tuned profile (pico tune) choosing each call's algorithm by size");
  cmd->add_option("--algorithm", o->algorithms, "COLLECTIVE=ALGORITHM: a reference algorithm for every call of it "
                                                "(over the profile; others: ATLAHS's fixed choice)");
  cmd->add_flag("--simulate", o->simulate, "Simulate it and the baseline in LogGOPSim and print both times");
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
