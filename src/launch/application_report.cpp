// SPDX-License-Identifier: BSD-3-Clause
#include "launch/application_report.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "config/mpi_libraries.hpp"
#include "core/speedup.hpp"
#include "instrumentation/interposer_probe.hpp"
#include "stats/bootstrap.hpp"
#include "stats/stats.hpp"
#include "tuning/call_site_saving.hpp"
#include "tuning/exported_choice.hpp"
#include "tuning/profile.hpp"

namespace pico {
namespace {

using nlohmann::json;

// The fewest paired rounds a speedup's interval is drawn from.
constexpr std::size_t kMinPairedRounds = 2;

// A collective call as the app counter files it.
struct CallKey {
  std::string collective;
  int comm_size = 0;
  std::uint64_t bytes = 0;
  auto operator<=>(const CallKey&) const = default;
};

// What a variant's launches did at one CallKey, per launch on average.
struct CallsAt {
  double calls = 0;
  double seconds = 0;
  std::map<std::string, double> ran;  // algorithm (or why none) -> calls
  // The algorithm that ran most of the calls; "" where none is known.
  std::string main_algorithm() const {
    std::string best;
    double most = -1;
    for (const auto& [a, n] : ran)
      if (n > most) best = a, most = n;
    return best;
  }
};

constexpr const char* kNoInterposer = "unknown (no interposer)";

// The algorithm a call ran, from the functions the interposer saw in it.
std::string ran_in_call(const json& functions, const std::string& collective, const AlgorithmFunctions& catalogue,
                        bool interposer) {
  if (!interposer) return kNoInterposer;
  const auto c = parse_collective(collective);
  if (!c) return "unknown (not a collective pico tunes)";
  std::vector<FunctionCalls> seen;
  for (const auto& f : functions) seen.push_back({f.get<std::string>(), 1});
  const RanAlgorithm r = ran_algorithm(seen, catalogue, *c, 1);
  return r.algorithm.empty() ? "none (no coll/base algorithm ran)" : r.algorithm;
}

std::map<CallKey, CallsAt> calls_of(const std::vector<const json*>& launches, const AlgorithmFunctions& catalogue) {
  std::map<CallKey, CallsAt> out;
  int counted = 0;
  for (const json* l : launches) {
    const json& counts = (*l)["counts"];
    if (!counts.is_object() || counts.value("ranks", 0) == 0) continue;
    ++counted;
    const bool interposer = counts.value("interposer", false);
    for (const auto& c : counts["calls"]) {
      CallsAt& at = out[{c["collective"].get<std::string>(), c["comm_size"].get<int>(), c["bytes"].get<std::uint64_t>()}];
      const double n = c["calls"].get<double>();
      at.calls += n;
      at.seconds += c["seconds"].get<double>();
      at.ran[ran_in_call(c["functions"], c["collective"].get<std::string>(), catalogue, interposer)] += n;
    }
  }
  for (auto& [key, at] : out) {
    at.calls /= counted;
    at.seconds /= counted;
    for (auto& [a, n] : at.ran) n /= counted;
  }
  return out;
}

// Mean over ranks of the time each spent in collectives, median over launches.
double collective_seconds(const std::vector<const json*>& launches) {
  std::vector<double> per_launch;
  for (const json* l : launches) {
    const json& by_rank = (*l)["counts"].value("collective_s_by_rank", json::array());
    if (by_rank.empty()) continue;
    double sum = 0;
    for (const auto& s : by_rank) sum += s.get<double>();
    per_launch.push_back(sum / static_cast<double>(by_rank.size()));
  }
  return median_of(per_launch);
}

// How long the application ran between MPI_Init and MPI_Finalize (its slowest
// rank), median over launches; each launch's wall time where no rank said.
double run_seconds(const std::vector<const json*>& launches) {
  std::vector<double> per_launch;
  for (const json* l : launches) {
    const json& by_rank = (*l)["counts"].value("mpi_s_by_rank", json::array());
    double longest = 0;
    for (const auto& s : by_rank) longest = std::max(longest, s.get<double>());
    per_launch.push_back(longest > 0 ? longest : (*l)["wall_s"].get<double>());
  }
  return median_of(per_launch);
}

struct VariantRuns {
  std::string name;
  std::map<int, std::vector<double>> metric_by_round;  // the time each ok launch of a round took (the metric)
  std::vector<const json*> ok;
  std::vector<const json*> failed;
};

// The time a launch stands for: the figure of merit (as a time: its inverse
// where higher is better), else its wall time.
std::optional<double> metric_of(const json& launch, const json& figure) {
  if (figure.is_null()) return launch["wall_s"].get<double>();
  if (!launch.contains("figure_of_merit")) return std::nullopt;
  const double v = launch["figure_of_merit"].get<double>();
  if (v <= 0) return std::nullopt;
  return figure.value("better", "lower") == "higher" ? 1.0 / v : v;
}

// Rounds in which both variants have a value: each side's round median, paired.
std::pair<Observation, Observation> paired_observations(const VariantRuns& base, const VariantRuns& cand) {
  Observation b, c;
  b.launch = c.launch = 0;
  b.report_id = c.report_id = "application";
  for (const auto& [round, values] : base.metric_by_round) {
    const auto it = cand.metric_by_round.find(round);
    if (it == cand.metric_by_round.end()) continue;
    b.round_medians_s.push_back(median_of(values));
    c.round_medians_s.push_back(median_of(it->second));
  }
  b.stats = compute_stats(b.round_medians_s);
  c.stats = compute_stats(c.round_medians_s);
  return {b, c};
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

std::string verdict_reason(const std::string& verdict, const MeasuredSpeedup& s, double changed_share,
                           std::size_t rounds, bool counts_known) {
  if (!s.has_interval()) return fmt::format("no interval: {}", s.method);
  const std::string interval = fmt::format("{}, 95% interval {} over {} paired round(s)", speedup_estimate_text(s),
                                           speedup_interval_text(s), rounds);
  const std::string share =
      counts_known ? fmt::format("the calls it changes take {} of the default's run (MPI_Init to MPI_Finalize)",
                                 percent(changed_share))
                   : "which calls it changes is unknown (no counts)";
  if (verdict == "faster") return fmt::format("{}; {}", interval, share);
  if (verdict == "slower") return fmt::format("{}: the variant is slower; {}", interval, share);
  return fmt::format("{} holds 1; {}{}", interval, share,
                     counts_known && changed_share < 0.05 ? ", too little for a gain this run could see" : "");
}

json failure_json(const json& l) {
  const std::string tail = l.value("output_tail", "");
  return {{"launch", l["launch"]},
          {"round", l["round"].get<int>() + 1},
          {"reason", l.value("reason", "")},
          {"exit_code", l["exit_code"]},
          {"signal", l["signal"]},
          {"output_tail", tail.size() > 2000 ? tail.substr(tail.size() - 2000) : tail}};
}

// The copy of the profile the variant ran with, "" where it ran without one.
std::string profile_path_of(const json& variant) {
  const json& p = variant["profile"];
  return p.is_object() && p.contains("copy") ? p["copy"].get<std::string>() : "";
}

std::optional<TunedProfile> profile_of(const json& variant) {
  const std::string path = profile_path_of(variant);
  if (path.empty()) return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  return load_profile(path);
}

// A variant's call sites against the default's, and against a profile's choices where it has one.
struct CallComparison {
  json rows = json::array();
  double changed_default_s = 0;  // the default's time at the sites whose algorithm the variant changed
  double chosen_calls = 0, taken_calls = 0, left_calls = 0;
  double predicted_saving_s = 0;
  bool any_changed = false;
  bool taken_unknown = false;  // no interposer: what ran inside the chosen calls is not known
};

// Without the interposer (MPICH) what ran inside a call is unknown: a site counts as changed where the
// variant's variables select an algorithm for it (`forced`: the collectives its `algorithms` name, or the
// profile's choice there), and whether a choice was taken is not said.
CallComparison compare_calls(const std::map<CallKey, CallsAt>& calls, const std::map<CallKey, CallsAt>& base_calls,
                             const TunedProfile* profile, const std::string& profile_path,
                             const std::set<std::string>& forced, bool is_baseline) {
  CallComparison out;
  for (const auto& [key, at] : calls) {
    json row = {{"collective", key.collective}, {"comm_size", key.comm_size}, {"bytes", key.bytes},
                {"calls", at.calls},            {"seconds", at.seconds},      {"ran", at.ran}};
    const bool seen_inside = !at.ran.empty() && at.ran.begin()->first != kNoInterposer;
    const auto c = parse_collective(key.collective);
    // What the library ran the profile as at this site: the rule its export applies there.
    const ExportedRule applied =
        profile != nullptr && c ? loaded_rule(*profile, profile_path, *c, key.comm_size) : ExportedRule{};
    const ProfileRange* range = applied.range_for(key.bytes);
    // An empty message runs no algorithm (Open MPI returns at once): nothing there to take.
    const bool chooses =
        range != nullptr && range->algorithm != "default" && (key.bytes > 0 || key.collective == "barrier");
    const auto d = base_calls.find(key);
    const std::string default_ran = d != base_calls.end() ? d->second.main_algorithm() : "";
    if (d != base_calls.end()) {
      row["default_ran"] = default_ran;
      row["default_seconds"] = d->second.seconds;
      if (at.seconds > 0) row["call_speedup"] = d->second.seconds / at.seconds;  // realized at this site
      const bool changed = !is_baseline && (seen_inside ? at.main_algorithm() != default_ran
                                                        : forced.count(key.collective) > 0 || chooses);
      row["changed"] = changed;
      if (changed) out.changed_default_s += d->second.seconds, out.any_changed = true;
    }
    if (profile != nullptr) {
      const std::string choice = applied.algorithm_at(key.bytes);
      row["profile_choice"] = range != nullptr ? applied.choice_at(key.bytes) : "default (no rule)";
      if (chooses) {
        out.chosen_calls += at.calls;
        if (range->speedup) row["profile_speedup"] = range->speedup->estimate;  // what its sweep measured
        if (d != base_calls.end())
          out.predicted_saving_s +=
              predicted_saving_at(range, {*c, key.comm_size, key.bytes, d->second.calls, d->second.seconds, default_ran});
        if (seen_inside) {
          const double taken = at.ran.count(choice) > 0 ? at.ran.at(choice) : 0.0;
          out.taken_calls += taken;
          row["taken"] = taken >= at.calls;
        } else {
          out.taken_unknown = true;
        }
      } else {
        out.left_calls += at.calls;
      }
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

// The variant's speedup over the default from their paired rounds, its verdict and the reason.
void add_verdict(json& out, const VariantRuns& base, const VariantRuns& r, bool counts_known) {
  const auto [b, c] = paired_observations(base, r);
  MeasuredSpeedup s;
  if (b.round_medians_s.empty()) {
    s.method = "none: no round in which both ran ok";
  } else if (b.round_medians_s.size() < kMinPairedRounds) {
    // One round's ratio is a point with no spread: no interval, so no verdict.
    s.estimate = b.round_medians_s[0] / c.round_medians_s[0];
    s.method = fmt::format("none: {} paired round; an interval needs {} (rounds: 5 or more)",
                           b.round_medians_s.size(), kMinPairedRounds);
  } else {
    s = speedup_of({b}, {c}, Objective::median);
  }
  const std::string verdict = b.round_medians_s.empty() ? "not measured" : std::string(s.verdict());
  out["speedup"] = {{"estimate", s.estimate}, {"low", s.low}, {"high", s.high}, {"method", s.method},
                    {"paired_rounds", b.round_medians_s.size()}};
  out["verdict"] = verdict;
  out["verdict_reason"] = verdict == "not measured" ? s.method
                                                    : verdict_reason(verdict, s, out["changed_share"].get<double>(),
                                                                     b.round_medians_s.size(), counts_known);
}

}  // namespace

json build_application_report(const json& run, const std::vector<json>& launches) {
  const json& experiment = run["experiment"];
  const json figure = experiment.value("figure_of_merit", json());
  const std::string library = run["mpi"]["library"].get<std::string>();
  const std::string version = run["mpi"]["version"].get<std::string>();
  // Where the library's interposer ran in the application's ranks (configs/mpi_libraries.yaml), its counts
  // name the functions that ran: the catalogue says which algorithm each one is.
  const MpiLibraryEntry* mpi = find_mpi_library(library);
  const bool sees_algorithms = mpi != nullptr && !mpi->interposer.empty();
  AlgorithmFunctions catalogue;
  if (sees_algorithms) catalogue = catalog_for(library).algorithm_functions(version);

  // The latest attempt of each planned launch: a resume's retry replaces a failure.
  std::map<int, const json*> latest;
  for (const json& l : launches) latest[l["launch"].get<int>()] = &l;

  json report = {{"schema", kApplicationReportSchema},
                 {"kind", "application"},
                 {"name", experiment["name"]},
                 {"command", experiment["command"]},
                 {"platform", run["platform"]},
                 {"mpi", run["mpi"]},
                 {"started_utc", run["started_utc"]},
                 {"metric", figure.is_null() ? "wall_s" : "figure_of_merit"},
                 {"figure_of_merit", figure},
                 {"rounds", experiment["rounds"]},
                 {"repetitions", experiment["repetitions"]},
                 {"launches_planned", static_cast<int>(experiment["processes"].size()) * experiment["rounds"].get<int>() *
                                          experiment["repetitions"].get<int>() *
                                          static_cast<int>(run["variants"].size())},
                 {"launches_run", static_cast<int>(launches.size())},
                 {"variants", run["variants"]},
                 {"processes", json::array()}};
  int failed_launches = 0;
  for (const auto& [index, l] : latest) failed_launches += (*l)["status"] != "ok";
  report["failed_launches"] = failed_launches;

  for (const auto& np_json : experiment["processes"]) {
    const int np = np_json.get<int>();
    std::vector<VariantRuns> runs;
    for (const auto& v : run["variants"]) runs.push_back({v["name"].get<std::string>(), {}, {}, {}});
    for (const auto& [index, l] : latest) {
      if ((*l)["np"].get<int>() != np) continue;
      for (VariantRuns& r : runs) {
        if (r.name != (*l)["variant"]) continue;
        if ((*l)["status"] != "ok") {
          r.failed.push_back(l);
        } else if (const auto m = metric_of(*l, figure)) {
          r.ok.push_back(l);
          r.metric_by_round[(*l)["round"].get<int>()].push_back(*m);
        }
      }
    }
    const VariantRuns& base = runs.front();
    const auto base_calls = calls_of(base.ok, catalogue);
    const double base_run = run_seconds(base.ok);
    const double base_collectives = collective_seconds(base.ok);

    json per_np = {{"np", np}, {"variants", json::array()}};
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const VariantRuns& r = runs[k];
      const json& variant = run["variants"][k];
      std::vector<double> values, walls;
      for (const auto& [round, vs] : r.metric_by_round) values.push_back(median_of(vs));
      for (const json* l : r.ok) walls.push_back((*l)["wall_s"].get<double>());
      json out = {{"variant", r.name},
                  {"launches_ok", r.ok.size()},
                  {"launches_failed", r.failed.size()},
                  {"failures", json::array()},
                  {"value_by_round", values},
                  {"median", median_of(values)},
                  {"wall_s_median", median_of(walls)}};
      if (!figure.is_null() && figure.value("better", "lower") == "higher") {
        // Reported in the application's own unit (the time stands for its inverse).
        json own = json::array();
        for (double v : values) own.push_back(v > 0 ? 1.0 / v : 0.0);
        out["figure_by_round"] = own;
        out["median_figure"] = out["median"].get<double>() > 0 ? 1.0 / out["median"].get<double>() : 0.0;
      }
      for (const json* l : r.failed) out["failures"].push_back(failure_json(*l));
      const double run_s = run_seconds(r.ok);
      const double in_collectives = collective_seconds(r.ok);
      out["run_s"] = run_s;
      out["collective_s"] = in_collectives;
      out["collective_share"] = run_s > 0 ? in_collectives / run_s : 0.0;

      const auto calls = calls_of(r.ok, catalogue);
      const std::optional<TunedProfile> profile = profile_of(variant);
      std::set<std::string> forced;
      const json algorithms = variant.value("algorithms", json::object());
      for (const auto& [collective, algorithm] : algorithms.items()) forced.insert(collective);
      const CallComparison cmp =
          compare_calls(calls, base_calls, profile ? &*profile : nullptr, profile_path_of(variant), forced, k == 0);
      out["calls"] = cmp.rows;
      if (profile) {
        out["profile_calls"] = {{"chosen", cmp.chosen_calls},
                                {"taken", cmp.taken_unknown ? json() : json(cmp.taken_calls)},
                                {"left_at_default", cmp.left_calls}};
        if (base_run > cmp.predicted_saving_s && !base_calls.empty())
          out["predicted"] = {{"speedup", base_run / (base_run - cmp.predicted_saving_s)},
                              {"saved_s", cmp.predicted_saving_s},
                              {"method", "the profile's speedup at each size (its sweep's estimate) applied to the "
                                         "default's time at every call site the profile chooses for"}};
      }
      if (k > 0 && base_collectives > 0 && in_collectives > 0 && base_run > 0 && run_s > 0) {
        // Where the realized saving went: a prediction from the changed calls covers time inside
        // collectives only, so time saved (or lost) outside them is what it cannot see.
        const double saved = base_run - run_s, saved_inside = base_collectives - in_collectives;
        out["realized_saving"] = {{"run_s", saved},
                                  {"in_collectives_s", saved_inside},
                                  {"outside_collectives_s", saved - saved_inside},
                                  {"method", "the default's median per launch minus the variant's: MPI_Init to "
                                             "MPI_Finalize (slowest rank) and time in collectives (mean over ranks)"}};
      }
      out["changed_share"] = base_run > 0 ? cmp.changed_default_s / base_run : 0.0;
      // What the library runs where pico cannot see inside its calls: what these variables select.
      if (!sees_algorithms && k > 0 && !variant.value("env", json::object()).empty())
        out["selected_by"] = variant["env"];
      out["changes_calls"] = cmp.any_changed;

      if (k == 0)
        out["verdict"] = "baseline";
      else
        add_verdict(out, base, r, !calls.empty() && !base_calls.empty());
      per_np["variants"].push_back(std::move(out));
    }
    report["processes"].push_back(std::move(per_np));
  }
  return report;
}

}  // namespace pico
