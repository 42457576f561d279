// SPDX-License-Identifier: BSD-3-Clause
// pico predict COLLECTIVE --size S --np P [--model M] [--loggopsim DIR]
// pico predict --check REPORT --model M
// Each reference algorithm's time from a LogGP model through LogGOPSim
// (src/simulation/predict.hpp), or the model checked against a report.
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/spec.hpp"
#include "config/units.hpp"
#include "launch/executor.hpp"
#include "simulation/predict.hpp"
#include "simulation/profile_choice.hpp"
#include "simulation/workload.hpp"
#include "support/counted.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/interrupt.hpp"
#include "tuning/exported_choice.hpp"

namespace pico::cli {
namespace {

struct PredictOptions {
  std::string collective, size, dtype = "float32", model, loggopsim, check, segment_size = "64KiB", profile;
  int np = 0, threads = 0;
  bool record = false;  // --check --record: keep the held-out check in the model file
};

std::string time_text(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.2f} us", s * 1e6);
}

// LogGOPSim, or none (pico's LogGP evaluator then, said in the output); a
// --loggopsim directory without it is an error.
std::optional<LogGOPSimTools> simulator(const std::string& dir) {
  auto tools = find_loggopsim(dir);
  if (!tools && !dir.empty())
    throw InputError("--loggopsim", fmt::format("no txt2bin and LogGOPSim in {}", dir),
                     "build txt2bin and LogGOPSim from https://github.com/spcl/LogGOPSim (src/LogGOPSim; "
                       "docs/simulation.md#loggopsim says how) and give that directory");
  return tools;
}

const char* simulator_name(const std::optional<LogGOPSimTools>& tools) {
  return tools ? "LogGOPSim" : "pico's LogGP evaluator: LogGOPSim not found, no g, O or rendezvous";
}

void run_check(const PredictOptions& o) {
  if (o.model.empty()) throw InputError("--check", "--check needs --model", "fit one: pico fit REPORT -o model.json");
  const LogGPModel model = load_model(o.model);
  const nlohmann::json report = read_report(o.check, kMaxJsonFileBytesWithin2GB);
  const CheckOrigin origin = check_origin(model, o.model, report, o.check);
  const auto tools = simulator(o.loggopsim);
  const CheckSummary s = check_report(tools, report, o.check, model.params, o.threads);
  fmt::print("model {} (platform '{}', {}, fitted from {}); ", o.model, model.platform, model.library, model.source);
  fmt::print("{}", origin.held_out ? "held-out check: the report is not the one it was fitted from\n"
                             : "NOT held out: this is the report the model was fitted from, so the errors below "
                               "overstate its accuracy on other runs\n");
  fmt::print("simulated by {}\n", simulator_name(tools));
  fmt::print("{:<16} {:>3} {:>9}  {:<20} {:>12} {:>12} {:>8}\n", "collective", "np", "size", "algorithm", "measured",
             "predicted", "error");
  for (const CheckedPoint& pt : s.points) {
    for (const auto& r : pt.rows)
      fmt::print("{:<16} {:>3} {:>9}  {:<20} {:>12} {:>12} {:>+7.1f}%\n", name(pt.collective), pt.np,
                 format_size(pt.bytes), r.algorithm, time_text(r.measured_s), time_text(r.predicted_s),
                 100 * (r.predicted_s / r.measured_s - 1));
    if (pt.rows.size() > 1)
      fmt::print("  best: measured {}, predicted {} ({}); ranking {}\n", pt.measured_best, pt.predicted_best,
                 pt.measured_best == pt.predicted_best ? "same" : fmt::format("{:+.1f}% slower", 100 * pt.regret),
                 pt.same_ranking ? "same" : "differs");
  }
  fmt::print("\n{}: median |predicted/measured - 1| = {:.1f}%, max {:.1f}%\n", counted(s.error.points, "case"),
             100 * s.error.median_rel, 100 * s.error.max_rel);
  if (s.ranked)
    fmt::print("predicted best = measured best at {} of {} (collective, size) points ({:.0f}%); whole ranking at {}; "
               "predicted best measured within {:.0f}% of the best at {} ({:.0f}%)\n",
               s.best_matches, s.ranked, 100.0 * s.best_matches / s.ranked, s.ranking_matches, 100 * kNearBest,
               s.near_best, 100.0 * s.near_best / s.ranked);
  fmt::print("\n{:<16} {:>6} {:>14} {:>10} {:>12} {:>12} {:>18}\n", "collective", "cases", "median error", "max error",
             "best match", fmt::format("within {:.0f}%", 100 * kNearBest), "mean Spearman rho");
  for (const CollectiveCheck& c : s.by_collective)
    fmt::print("{:<16} {:>6} {:>13.1f}% {:>9.1f}% {:>12} {:>12} {:>18}\n", name(c.collective), c.error.points,
               100 * c.error.median_rel, 100 * c.error.max_rel,
               c.ranked ? fmt::format("{}/{}", c.best_matches, c.ranked) : std::string("-"),
               c.ranked ? fmt::format("{}/{}", c.near_best, c.ranked) : std::string("-"),
               c.ranked ? fmt::format("{:+.2f}", c.mean_spearman) : std::string("-"));
  if (!o.record) return;
  // --record: the model keeps this held-out check as the accuracy its predictions quote.
  if (!origin.held_out)
    throw InputError("--record", "a check on the report the model was fitted from is not recorded",
                     "record a check on another run: pico predict --check OTHER_RUN --model M --record");
  LogGPModel recorded = model;
  recorded.held_out = {.report = o.check, .error = s.error, .ranked = s.ranked, .best_matches = s.best_matches};
  write_text_file(o.model, to_json(recorded).dump(1) + "\n");
  fmt::print("recorded in {}: {}\n", o.model, accuracy_text(recorded, o.model));
}

// "profile P (LIB VERSION) picks X": what the profile's export makes the library run here (loaded_rule, the
// resolution the exports write), so that predict never names a choice the loaded file does not make.
std::string profile_pick(const TunedProfile& profile, const std::string& path, Collective coll, int np,
                         std::uint64_t bytes) {
  const ExportedRule applied = loaded_rule(profile, path, coll, np);
  const std::string head =
      fmt::format("profile {} ({} {}) picks ", path, profile.library.name, profile.library.version);
  if (applied.rule == nullptr) return head + "default: " + applied.why;
  // What the default ran is known at the rule's own size only; a block scaled for np runs tuned's own decision.
  const std::string library = applied.algorithm_at(bytes);
  const std::string ref =
      library == "default"
          ? ""
          : reference_equivalent(load_reference_equivalents(profile.library.name, path), coll, library);
  return head + applied.choice_at(bytes) + (ref.empty() ? "" : fmt::format(" (simulated as reference {})", ref)) +
         (applied.own_size() ? "" : fmt::format(" (its rule for np {}, which the export applies at np {})",
                                                applied.rule->comm_size, np));
}

void run_predict(const PredictOptions& o) {
  if (o.collective.empty()) throw InputError("pico predict", "give a collective (or --check REPORT)", "e.g. pico predict allreduce --size 1MiB --np 64");
  const auto coll = parse_collective(o.collective);
  if (!coll || reference_algorithm_names(*coll).empty())
    throw InputError("COLLECTIVE", fmt::format("no reference algorithms for '{}'", o.collective),
                     "one of " + collective_names(has_reference_algorithms));
  if (o.np < 2) throw InputError("--np", fmt::format("--np must be at least 2, got {}", o.np), "e.g. --np 64");
  if (o.np > (1 << 20)) throw InputError("--np", fmt::format("--np must be at most 2^20, got {}", o.np), "e.g. --np 64");
  const auto dtype = parse_dtype(o.dtype);
  if (!dtype) throw InputError("--dtype", fmt::format("unknown datatype '{}'", o.dtype), "e.g. float32");
  std::string why;
  std::uint64_t bytes = 0;
  const bool payload = spec_for(*coll).has_payload;
  if (payload) {
    if (o.size.empty()) throw InputError("--size", "--size is required", "e.g. --size 1MiB");
    const auto b = parse_size(o.size, &why);
    if (!b) throw InputError("--size", fmt::format("bad size '{}': {}", o.size, why), "write e.g. 8B, 4KiB or 1MiB");
    bytes = *b;
    if (bytes > kMaxCallBytes)
      throw InputError("--size", fmt::format("{} bytes is beyond the 1 TiB per rank pico schedules", bytes), "e.g. --size 1MiB");
  }
  const auto segment = parse_size(o.segment_size, &why);
  if (!segment) throw InputError("--segment-size", fmt::format("bad size '{}': {}", o.segment_size, why), "e.g. 64KiB");
  const LogGPModel model = o.model.empty() ? default_model() : load_model(o.model);
  std::optional<TunedProfile> profile;
  if (!o.profile.empty()) profile = cli::read_profile(o.profile);
  const auto tools = simulator(o.loggopsim);
  const auto predictions = predict_algorithms(tools, *coll, bytes, o.np, payload ? *dtype : Dtype::none,
                                              *segment, model.params, o.threads);
  fmt::print("{} {} on {} ranks, model: {}{} ({})\n", o.collective, payload ? format_size(bytes) : "", o.np,
             o.model.empty() ? "built-in " : o.model + ", ", model.platform, simulator_name(tools));
  fmt::print("{}\n", accuracy_text(model, o.model));
  const double best = predictions.front().seconds;
  for (const auto& p : predictions) {
    if (!p.not_evaluated.empty()) fmt::print("  {:<20} not evaluated: {}\n", p.algorithm, p.not_evaluated);
    else fmt::print("  {:<20} {:>12}  x{:.2f}\n", p.algorithm, time_text(p.seconds), best > 0 ? p.seconds / best : 1.0);
  }
  if (profile) fmt::print("{}\n", profile_pick(*profile, o.profile, *coll, o.np, bytes));
}

}  // namespace

void add_predict(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("predict", "Predict reference algorithms' times from a LogGP model (LogGOPSim), or "
                                            "check a model against a report");
  auto opts = std::make_shared<PredictOptions>();
  cmd->add_option("collective", opts->collective, "Collective with reference algorithms");
  cmd->add_option("--size", opts->size, "Per-rank message size, e.g. 1MiB");
  cmd->add_option("--np", opts->np, "Number of ranks (far beyond what was measured is fine)");
  cmd->add_option("--dtype", opts->dtype, "Datatype")->capture_default_str();
  cmd->add_option("--segment-size", opts->segment_size, "Segment size of pipelined algorithms")->capture_default_str();
  cmd->add_option("--model", opts->model, "Model from pico fit (default: ATLAHS's AI parameters)");
  cmd->add_option("--profile", opts->profile, "Tuned profile: say which algorithm it picks here");
  cmd->add_option("--check", opts->check, "Compare the model with a report's measured reference cases");
  cmd->add_flag("--record", opts->record,
                "With --check on a report the model was not fitted from: keep the result in the model file as the "
                "accuracy its predictions quote");
  cmd->add_option("--loggopsim", opts->loggopsim,
                  "Directory holding txt2bin and LogGOPSim (default: $PICO_LOGGOPSIM_DIR, then PATH)");
  cmd->add_option("--threads", opts->threads, "Simulations at once (0: one per hardware thread)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] {
    // Ctrl-C or kill stops the simulations by an exception, so that their /tmp/pico-sim-* go with the stack.
    install_interrupt_handlers();
    if (opts->record && opts->check.empty())
      throw InputError("--record", "--record keeps a check: it needs --check REPORT", "pico predict --check OTHER_RUN --model M --record");
    if (!opts->check.empty()) run_check(*opts);
    else run_predict(*opts);
    std::cout.flush();
    exit_code = 0;
  });
}

}  // namespace pico::cli
