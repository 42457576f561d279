// SPDX-License-Identifier: BSD-3-Clause
// pico schedule COLLECTIVE --algorithm A --np P --size BYTES [--dtype float32]
//               [--format goal|json] [-o FILE] [--threads N]
//               [--model model.json | --reduce-ps-per-byte X] [--tag-base T]
// Records a reference algorithm's schedule for all P ranks without MPI and
// writes it for a network simulator (collectives/schedule_export.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/format_flags.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/goal_writer.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/schedule_export.hpp"
#include "collectives/spec.hpp"
#include "config/units.hpp"
#include "simulation/loggp_model.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

namespace pico::cli {
namespace {

struct ScheduleOptions {
  std::string collective, algorithm, size, dtype = "float32", format = "goal", output, segment_size = "64KiB", model;
  std::shared_ptr<GivenFlags> flags = std::make_shared<GivenFlags>();  // the formats' own (GOAL's)
  std::string counts;  // alltoallv's count-matrix pattern
  int np = 0, root = 0, threads = 0;
  bool in_place = false;
};

[[noreturn]] void bad(const std::string& option, const std::string& message, const std::string& hint) {
  throw InputError(option, 0, 0, message, hint);
}

// The collectives pico has reference algorithms for: the ones a schedule can be recorded of.
std::vector<std::string_view> schedulable_collectives() {
  std::vector<std::string_view> out;
  for (Collective c : all_collectives())
    if (!reference_algorithm_names(c).empty()) out.push_back(name(c));
  return out;
}

reference::ScheduleRequest to_request(const ScheduleOptions& o) {
  reference::ScheduleRequest req;
  const auto coll = parse_collective(o.collective);
  if (!coll) bad("COLLECTIVE", fmt::format("unknown collective '{}'", o.collective),
                 fmt::format("one of {}", fmt::join(schedulable_collectives(), ", ")));
  req.collective = *coll;
  const auto names = reference_algorithm_names(req.collective);
  // sendrecv is a single MPI_Sendrecv: no algorithm of pico's own, so nothing to record.
  if (names.empty())
    bad("COLLECTIVE", fmt::format("pico has no reference {} algorithm, so it has no schedule", o.collective),
        fmt::format("one of {}", fmt::join(schedulable_collectives(), ", ")));
  if (!reference_algorithm_exists(req.collective, o.algorithm))
    bad("--algorithm", fmt::format("no reference {} algorithm '{}'", o.collective, o.algorithm),
        fmt::format("one of {}", fmt::join(names, ", ")));
  req.algorithm = o.algorithm;
  if (o.np < 1) bad("--np", fmt::format("--np must be at least 1, got {}", o.np), "give the number of ranks, e.g. --np 16");
  req.np = o.np;
  if (o.root < 0 || o.root >= o.np)
    bad("--root", fmt::format("root {} is outside [0, {})", o.root, o.np), "give a rank below --np");
  req.root = o.root;
  const auto dtype = parse_dtype(o.dtype);
  if (!dtype) bad("--dtype", fmt::format("unknown datatype '{}'", o.dtype),
                  "one of int8, uint8, int16, int32, int64, float32, float64");
  const CollectiveSpec& spec = spec_for(req.collective);
  req.dtype = spec.has_payload ? *dtype : Dtype::none;
  std::string why;
  if (spec.has_payload) {
    if (o.size.empty()) bad("--size", "--size is required", "give the per-rank message size, e.g. --size 1MiB");
    const auto bytes = parse_size(o.size, &why);
    if (!bytes) bad("--size", fmt::format("bad size '{}': {}", o.size, why), "write e.g. 8B, 4KiB or 1MiB");
    req.count = *bytes / dtype_size(req.dtype);  // as an experiment's sizes: whole elements
  }
  const auto segment = parse_size(o.segment_size, &why);
  if (!segment) bad("--segment-size", fmt::format("bad size '{}': {}", o.segment_size, why), "write e.g. 64KiB");
  req.segment_bytes = *segment;
  if (o.in_place && !spec.supports_in_place())
    bad("--in-place", std::string(spec.no_in_place_reason), "leave out --in-place");
  req.in_place = o.in_place;
  if (!o.counts.empty()) {
    if (!spec.count_matrix) bad("--counts", fmt::format("{} takes no count matrix", o.collective), "leave out --counts");
    try {
      CountPattern p = parse_count_pattern(o.counts);
      if (p.kind == CountPatternKind::file) p.path = std::filesystem::absolute(p.path).string();
      if (const std::string fit = pattern_fit_reason(p, o.np); !fit.empty()) bad("--counts", fit, "give a rank below --np");
      if (p.kind == CountPatternKind::file) read_count_weights(p.path, o.np);  // its own errors name the file
      req.counts = pattern_text(p);
    } catch (const std::invalid_argument& e) {
      bad("--counts", e.what(),
          "write uniform, random:seed=N, hot:rank=R,factor=F, powerlaw:alpha=A, distance:spread=S or file:PATH");
    }
  }
  return req;
}

}  // namespace

void add_schedule(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("schedule", "Write a reference algorithm's schedule for a simulator (GOAL, JSON)");
  auto opts = std::make_shared<ScheduleOptions>();
  cmd->add_option("collective", opts->collective,
                  "A collective with reference algorithms: " + collective_names(has_reference_algorithms))
      ->required();
  cmd->add_option("--algorithm", opts->algorithm, "Reference algorithm (configs/catalog/reference.yaml)")->required();
  cmd->add_option("--np", opts->np, "Number of ranks")->required();
  cmd->add_option("--size", opts->size, "Per-rank message size, e.g. 1MiB (as an experiment's sizes)");
  cmd->add_option("--dtype", opts->dtype, "Datatype")->capture_default_str();
  cmd->add_option("--root", opts->root, "Root rank of rooted collectives")->capture_default_str();
  cmd->add_option("--counts", opts->counts,
                  "alltoallv: the count matrix, uniform (default), random:seed=N, hot:rank=R,factor=F, "
                  "powerlaw:alpha=A, distance:spread=S or file:PATH");
  cmd->add_option("--segment-size", opts->segment_size, "Segment size of pipelined algorithms")->capture_default_str();
  cmd->add_flag("--in-place", opts->in_place, "Record the MPI_IN_PLACE form");
  std::string formats;
  for (const ScheduleFormat* f : schedule_formats()) formats += fmt::format("\n  {:<5} {}", f->name, f->description);
  cmd->add_option("-f,--format", opts->format, "Output format:" + formats)->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "Write to FILE instead of standard output");
  cmd->add_option("--threads", opts->threads, "Ranks formatted at once (0: one per hardware thread)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  add_format_flags(cmd, schedule_formats(), opts->flags);
  cmd->add_option("--model", opts->model,
                  "goal: take the reduction cost and the exchange factor from a model (pico fit); LogGOPSim takes "
                  "its L, o, G of the band of the schedule's largest message");
  cmd->callback([opts, &exit_code] {
    const ScheduleFormat& format = schedule_format(opts->format);
    FormatArgs args = format_args(format, schedule_formats(), *opts->flags);
    const reference::ScheduleRequest req = to_request(*opts);
    // --model is a source of GOAL's reduction cost and exchange factor, in place of their flags.
    if (!opts->model.empty()) {
      if (format.name != "goal")
        bad("--model", fmt::format("--format {} takes no --model", format.name), "--model is for goal");
      for (const char* flag : {"reduce-ps-per-byte", "exchange-factor"})
        if (args.has(flag))
          bad("--model", fmt::format("--model and --{} both give it", flag), "give one of them");
      const LogGPParams p = load_model(opts->model).params;
      args.set("reduce-ps-per-byte", fmt::format("{}", p.reduce_ps_per_byte));
      args.set("exchange-factor", fmt::format("{}", p.exchange_factor));
    }
    if (opts->output.empty()) {
      format.write(req, args, std::cout, opts->threads);
      std::cout.flush();
    } else {
      // Streamed, never held whole (4,096 ranks of ring at 1 MiB held 11 GB); a
      // file that cannot be written is exit 3 with the reason, as for every verb.
      StreamedFile file(opts->output);
      format.write(req, args, file.stream(), opts->threads);
      file.finish();
    }
    exit_code = 0;
  });
}

}  // namespace pico::cli
