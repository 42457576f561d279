// SPDX-License-Identifier: BSD-3-Clause
// pico bench COLLECTIVE [--np N] [--sizes 8B:64MiB | -m [MIN:]MAX | -b MIN -e MAX -f F] [--dtype float32] ...
// An ad-hoc experiment built from flags, taking the flags OSU and nccl-tests
// users type; it runs exactly like `pico run` and its results directory holds
// the equivalent experiment YAML for re-running.
//
// The flags are never pasted into YAML text: each value becomes one scalar of
// an experiment document built in memory, so a value with commas or colons
// stays one (wrong) value instead of changing the experiment. The document is
// checked by the same parser as a file, and an error it finds is reported at
// the flag that gave the value.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/spec.hpp"
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "config/units.hpp"
#include "config/yaml_reader.hpp"
#include "core/types.hpp"
#include "launch/mpi_detect.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

namespace pico::cli {
namespace {

struct BenchOptions {
  std::string collective, dtype = "float32", op = "sum", backend = "mpi", algorithm = "default";
  std::string platform = "local", output = "results", time_budget = "1s";
  std::optional<std::string> mode;  // default latency; throughput with -G (nccl-tests' replays run back to back)
  std::vector<int> np{2};
  // Sizes: pico's list, OSU's -m [MIN:]MAX, or nccl-tests' -b/-e/-f.
  std::string sizes, message_size, min_bytes, max_bytes;
  std::string rotate_buffers;  // nccl: the span timed calls' buffers move through
  // Signed: CLI11 reads "-2" into an unsigned as 2^64-2, which would pass the check below.
  std::int64_t step_factor = 2;
  bool step_factor_given = false;
  std::optional<std::int64_t> iterations, warmup, calls_per_sample, cuda_graph;
  std::optional<std::string> target_ci, case_timeout;
  int check = 1;
  // Given empty (--call ''), a value still, refused as the YAML refuses `call: ''`.
  std::optional<std::string> call;  // mpi: blocking (default), nonblocking or persistent
  std::optional<std::string> counts;  // alltoallv: the count-matrix pattern, as its text (random:seed=7)
  bool in_place = false, dry_run = false, quiet = false, wide = false;
  bool keep_samples = false;  // timing.keep_samples: every sample and every rank's arrival and exit of each
  bool no_rank_timing = false;  // timing.rank_timing: false: no per-rank times, clock sync or link probe
  std::string style = "pico";  // the table: pico or nccl-tests
};

constexpr const char* kDefaultSizes = "8B:1MiB";
constexpr std::uint64_t kDefaultSmallestBytes = 8;  // -m MAX and -e alone start here, as kDefaultSizes does
constexpr const char* kVerb = "pico bench";

// The flag behind each key of the document, for errors the parser finds.
const std::map<std::string, std::string>& flag_of_key() {
  static const std::map<std::string, std::string> flags{
      {"name", kVerb},           {"collectives", kVerb},           {"dtypes", "--dtype"},
      {"ops", "--op"},           {"processes", "--np"},            {"in_place", "--in-place"},
      {"library", "--backend"},  {"algorithms", "--algorithm"},    {"mode", "--mode"},
      {"time_budget", "--time-budget"}, {"case_timeout", "--case-timeout"}, {"warmup", "--warmup"},
      {"min_iterations", "--iterations"}, {"max_iterations", "--iterations"}, {"target_ci", "--target-ci"},
      {"validation", "--check"}, {"calls_per_sample", "--calls-per-sample"}, {"graph", "-G"},
      {"rotate_buffers", "--rotate-buffers"}, {"call", "--call"}, {"count_matrix", "--counts"},
      {"pattern", "--counts"},   {"seed", "--counts"},             {"rank", "--counts"},
      {"factor", "--counts"},    {"alpha", "--counts"},            {"path", "--counts"},
      {"spread", "--counts"},    {"keep_samples", "--keep-samples"},
      {"rank_timing", "--no-rank-timing"}};
  return flags;
}

std::uint64_t tool_size(const std::string& text, const char* flag) {
  std::string why;
  const auto bytes = parse_tool_size(text, &why);
  if (!bytes) throw InputError(flag, why, "write a size such as 8, 1K, 4M or 64MiB (K, M, G are 1024-based)");
  return *bytes;
}

// The sizes and the flag that gave them.
std::pair<std::vector<std::uint64_t>, std::string> bench_sizes(const BenchOptions& o) {
  if (!o.message_size.empty()) {  // OSU: -m MAX or -m MIN:MAX, doubling
    const auto colon = o.message_size.find(':');
    const std::uint64_t lo =
        colon == std::string::npos ? kDefaultSmallestBytes : tool_size(o.message_size.substr(0, colon), "-m");
    const std::uint64_t hi = tool_size(colon == std::string::npos ? o.message_size : o.message_size.substr(colon + 1), "-m");
    if (lo < 1 || lo > hi) throw InputError("-m", fmt::format("'{}' is not a range MIN:MAX with 1 <= MIN <= MAX", o.message_size));
    return {size_range(lo, hi, 2), "-m"};
  }
  if (!o.min_bytes.empty() || !o.max_bytes.empty()) {  // nccl-tests: -b MIN -e MAX -f FACTOR
    const std::uint64_t lo = o.min_bytes.empty() ? kDefaultSmallestBytes : tool_size(o.min_bytes, "-b");
    const std::uint64_t hi = o.max_bytes.empty() ? lo : tool_size(o.max_bytes, "-e");
    if (lo < 1) throw InputError("-b", "the smallest size must be 1 byte or more");
    if (lo > hi) throw InputError("-e", fmt::format("the largest size ({}) is below the smallest ({})", format_size(hi), format_size(lo)));
    if (o.step_factor < 2) throw InputError("-f", fmt::format("the step factor must be 2 or more, got {}", o.step_factor));
    return {size_range(lo, hi, static_cast<std::uint64_t>(o.step_factor)), "-b/-e/-f"};
  }
  if (o.step_factor_given) throw InputError("-f", "a step factor without -b or -e would be ignored", "add -b MIN -e MAX");
  const std::string text = o.sizes.empty() ? kDefaultSizes : o.sizes;
  std::string why;
  const auto sizes = parse_size_list(text, &why);
  if (!sizes)
    throw InputError("--sizes", fmt::format("bad size list '{}': {}", text, why),
                     "write FROM:TO[:FACTOR] such as 8B:64MiB, or a list such as 8B,4KiB,1MiB");
  return {*sizes, "--sizes"};
}

// --counts TEXT as the experiment's map form: {pattern: hot, rank: 0, factor: 8}.
YAML::Node count_matrix_node(const std::string& text) {
  CountPattern p;
  try {
    p = parse_count_pattern(text);
  } catch (const std::invalid_argument& e) {
    throw InputError("--counts", e.what(),
                     "write uniform, random:seed=N, hot:rank=R,factor=F, powerlaw:alpha=A, distance:spread=S or "
                     "file:PATH");
  }
  YAML::Node node;
  const std::string canonical = pattern_text(p);
  node["pattern"] = canonical.substr(0, canonical.find(':'));
  switch (p.kind) {
    case CountPatternKind::uniform: break;
    case CountPatternKind::random: node["seed"] = p.seed; break;
    case CountPatternKind::hot:
      node["rank"] = p.rank;
      node["factor"] = p.factor;
      break;
    case CountPatternKind::powerlaw: node["alpha"] = p.alpha; break;
    case CountPatternKind::file: node["path"] = std::filesystem::absolute(p.path).string(); break;  // from the cwd
    case CountPatternKind::distance: node["spread"] = p.spread; break;
  }
  return node;
}

// The experiment as a document: every flag value one scalar node.
YAML::Node experiment_document(const BenchOptions& o, const std::vector<std::uint64_t>& sizes) {
  YAML::Node doc;
  doc["name"] = "bench-" + o.collective;
  doc["collectives"].push_back(o.collective);
  for (const auto s : sizes) doc["sizes"].push_back(format_size(s));
  doc["dtypes"].push_back(o.dtype);
  doc["ops"].push_back(o.op);
  for (const int n : o.np) doc["processes"].push_back(n);
  if (o.counts) doc["count_matrix"].push_back(count_matrix_node(*o.counts));
  // nccl-tests' table has both forms side by side: measure both unless --in-place asks for one.
  if (o.style == "nccl-tests" && !o.in_place) doc["in_place"] = "both";
  else doc["in_place"] = o.in_place;
  YAML::Node backend;
  backend["library"] = o.backend;
  backend["algorithms"].push_back(o.algorithm);
  if (!o.rotate_buffers.empty()) backend["rotate_buffers"] = o.rotate_buffers;
  if (o.call) backend["call"] = *o.call;
  doc["backends"].push_back(backend);
  YAML::Node timing;
  timing["mode"] = o.mode.value_or(o.cuda_graph ? "throughput" : "latency");
  timing["time_budget"] = o.time_budget;
  if (o.warmup) timing["warmup"] = *o.warmup;
  if (o.calls_per_sample) timing["calls_per_sample"] = *o.calls_per_sample;
  if (o.cuda_graph) {  // nccl-tests' -G N -n M: N replays (samples) of a graph of M calls (default 20)
    timing["graph"] = o.iterations.value_or(kDefaultCallsPerSample);
    timing["min_iterations"] = *o.cuda_graph;
    timing["max_iterations"] = *o.cuda_graph;
  } else if (o.iterations) {  // exactly N, as OSU's -i: the loop stops at max once min is done
    timing["min_iterations"] = *o.iterations;
    timing["max_iterations"] = *o.iterations;
  }
  if (o.target_ci) timing["target_ci"] = *o.target_ci;
  if (o.keep_samples) timing["keep_samples"] = true;
  if (o.no_rank_timing) timing["rank_timing"] = false;
  // A long budget needs a longer per-case timeout: budget plus a minute for warm-up and validation.
  timing["case_timeout"] = o.case_timeout ? *o.case_timeout
                                          : fmt::format("{}s", parse_duration_s(o.time_budget).value_or(1.0) + 60.0);
  doc["timing"] = timing;
  doc["validation"] = o.check != 0;
  return doc;
}

// Every map key of the document with its line (0-based), in document order.
void key_lines(const YAML::Node& node, std::vector<std::pair<int, std::string>>& out) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      out.emplace_back(kv.first.Mark().line, kv.first.Scalar());
      key_lines(kv.second, out);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) key_lines(item, out);
  }
}

// The flag behind an error at line (1-based) of the emitted document: the last key at or above it.
std::string flag_at(const std::string& text, int line, const std::string& sizes_flag) {
  if (line <= 0) return kVerb;
  std::vector<std::pair<int, std::string>> keys;
  key_lines(YAML::Load(text), keys);
  std::string key;
  for (const auto& [key_line, name] : keys)
    if (key_line <= line - 1) key = name;
  if (key == "sizes") return sizes_flag;
  const auto it = flag_of_key().find(key);
  return it == flag_of_key().end() ? std::string(kVerb) : it->second;
}

Experiment bench_experiment(const BenchOptions& o) {
  // Checked first: it names the experiment and its results.
  if (!parse_collective(o.collective)) {
    std::vector<std::string> known;
    for (Collective c : all_collectives()) known.emplace_back(name(c));
    throw InputError(kVerb, fmt::format("unknown collective '{}'", o.collective),
                     yaml::suggest_and_list(o.collective, known, "collectives (one per pico bench)"));
  }
  const auto [sizes, sizes_flag] = bench_sizes(o);
  YAML::Emitter out;
  out << experiment_document(o, sizes);
  const std::string text = std::string(out.c_str()) + "\n";
  try {
    Experiment e = parse_experiment(text, "<pico bench flags>");
    if (const std::string note = decimal_unit_note(o.sizes); !note.empty()) e.warnings.push_back("--sizes: " + note);
    return e;
  } catch (const InputError& e) {
    throw InputError(flag_at(text, e.line, sizes_flag), e.message, e.hint);
  }
}

}  // namespace

void add_bench(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("bench", "Benchmark one collective without writing an experiment file");
  auto opts = std::make_shared<BenchOptions>();
  cmd->add_option("collective", opts->collective, collective_names())
      ->required();
  cmd->add_option("--np", opts->np, "Process counts")->capture_default_str();
  auto* sizes = cmd->add_option("--sizes", opts->sizes, "FROM:TO[:FACTOR] or a comma list (default 8B:1MiB)");
  auto* osu = cmd->add_option("-m,--message-size", opts->message_size, "OSU style: [MIN:]MAX, doubling (1K = 1024)");
  auto* lo = cmd->add_option("-b,--minbytes", opts->min_bytes, "nccl-tests style: smallest size (1K = 1024)");
  auto* hi = cmd->add_option("-e,--maxbytes", opts->max_bytes, "nccl-tests style: largest size");
  auto* factor = cmd->add_option("-f,--stepfactor", opts->step_factor, "nccl-tests style: size multiplier (default 2)");
  sizes->excludes(osu)->excludes(lo)->excludes(hi)->excludes(factor);
  osu->excludes(lo)->excludes(hi)->excludes(factor);
  cmd->add_option("--dtype,-d", opts->dtype, "Datatype")->capture_default_str();
  cmd->add_option("--op", opts->op, "Reduction operation")->capture_default_str();
  cmd->add_option("--backend", opts->backend, "Backend library")->capture_default_str();
  cmd->add_option("--algorithm", opts->algorithm, "Algorithm")->capture_default_str();
  cmd->add_option("--mode", opts->mode, "latency | throughput (default latency; throughput with -G)");
  cmd->add_option("--time-budget", opts->time_budget, "Timed-loop budget per case")->capture_default_str();
  cmd->add_option("-i,-n,--iterations", opts->iterations,
                  "Exactly this many timed samples per case (OSU -i); with -G the calls per graph (nccl-tests -n)");
  cmd->add_option("--calls-per-sample", opts->calls_per_sample,
                  "Throughput mode: calls timed together per sample (default 20; 1: each call)");
  cmd->add_flag("--keep-samples", opts->keep_samples,
                "Keep every sample and every rank's arrival and exit of each in the report (timing.keep_samples)");
  cmd->add_flag("--no-rank-timing", opts->no_rank_timing,
                "No per-rank times, clock synchronisation or stragglers (timing.rank_timing: false)");
  cmd->add_option("--rotate-buffers", opts->rotate_buffers,
                  "nccl: move each timed call's buffers through this span (nccl-tests' cold cache), e.g. 1GiB");
  cmd->add_option("--call", opts->call,
                  "mpi: blocking (default), nonblocking (MPI_I<Coll> then MPI_Wait: OSU's pure communication time) or "
                  "persistent (MPI_<Coll>_init once, then MPI_Start/MPI_Wait)");
  cmd->add_option("--counts", opts->counts,
                  "alltoallv: the count matrix, uniform (default), random:seed=N, hot:rank=R,factor=F, "
                  "powerlaw:alpha=A, distance:spread=S (nccl-tests' default) or file:PATH "
                  "(docs/configuration.md#count-matrices)");
  cmd->add_option("-G,--cudagraph", opts->cuda_graph,
                  "nccl-tests -G: N replays of a CUDA graph of -n calls (default 20); nccl backends, throughput");
  cmd->add_option("-x,-w,--warmup", opts->warmup, "Warm-up iterations per case (OSU -x, nccl-tests -w)");
  cmd->add_option("--target-ci", opts->target_ci, "Stop when the median's 95% CI is within this, e.g. 2%");
  cmd->add_option("--case-timeout", opts->case_timeout, "Wall time after which a case is killed (default budget + 60s)");
  cmd->add_option("-c,--check", opts->check, "Validate results: 1 (default) or 0 (nccl-tests -c)")
      ->check(CLI::IsMember({0, 1}));
  cmd->add_option("-p,--platform", opts->platform, "Platform name or file")->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "Base results directory")->capture_default_str();
  cmd->add_flag("--in-place", opts->in_place, "Use MPI_IN_PLACE");
  cmd->add_option("--style", opts->style,
                  "Table: pico (min/median/avg/max, OSU-like) or nccl-tests (out-of-place and in-place side by side, "
                  "#wrong, average bus bandwidth; measures both forms)")
      ->check(CLI::IsMember({"pico", "nccl-tests"}))
      ->capture_default_str();
  cmd->add_flag("--dry-run", opts->dry_run, "Print the cases and launch commands, run nothing");
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress line and no table");
  cmd->add_flag("--wide", opts->wide, "Print the table in full width (default: fitted to 100 columns)");
  cmd->callback([opts, factor, &exit_code] {
    // nccl-tests' -o is the reduction operation: `-o sum` would silently make ./sum the results directory.
    if ((parse_op(opts->output) || opts->output == "avg") && !std::filesystem::exists(opts->output))
      throw InputError("-o", fmt::format("'{}' is a reduction operation (nccl-tests' -o), but pico bench's -o is the "
                                         "results directory", opts->output),
                       fmt::format("give the operation with --op {}, and a directory (or nothing) with -o",
                                   opts->output));
    opts->step_factor_given = factor->count() > 0;
    RunRequest request;
    request.experiment = bench_experiment(*opts);
    request.platform = resolve_platform(opts->platform);
    request.output_base = opts->output;
    request.progress = !opts->quiet;
    // The algorithm asked for skipped at every size is a bench of the default alone
    // (`bench bcast --algorithm rabenseifner` exited 0): the flag names what cannot run.
    const Plan plan = make_plan(request.experiment, plan_target_for(request.platform));
    const auto asked = [&](const Case& c) { return c.algorithm == opts->algorithm; };
    if (std::none_of(plan.cases.begin(), plan.cases.end(), [&](const Case& c) {
          return asked(c) && std::none_of(plan.skipped.begin(), plan.skipped.end(),
                                           [&](const SkippedCase& s) { return s.c.case_id == c.case_id; });
        })) {
      const auto why = std::find_if(plan.skipped.begin(), plan.skipped.end(), [&](const SkippedCase& s) { return asked(s.c); });
      throw InputError("--algorithm", fmt::format("no case of '{}' can run{}", opts->algorithm,
                                                  why == plan.skipped.end() ? "" : ": " + why->reason),
                       "pico list algorithms shows what each library runs for a collective");
    }
    exit_code = execute_and_print(request, opts->dry_run, opts->quiet,
                                  opts->style == "nccl-tests" ? TableStyle::nccl_tests : TableStyle::benchmark,
                                  opts->wide ? kUnlimitedWidth : kDefaultTableWidth);
  });
}

}  // namespace pico::cli
