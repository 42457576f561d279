// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/tune.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "collectives/count_matrix.hpp"
#include "config/backends.hpp"
#include "core/case_result.hpp"
#include "core/guidelines.hpp"
#include "core/observation.hpp"
#include "core/oversubscription.hpp"
#include "core/placement_mismatch.hpp"
#include "core/rank_placement.hpp"
#include "core/report_facts.hpp"
#include "reports/fitted_table.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"
#include "support/size_text.hpp"
#include "tuning/run_evidence.hpp"

namespace pico {

namespace {

// A default case whose library reported functions no catalogue entry names.
constexpr const char* kUnknownFunctions = "(unknown functions)";

// Cases of a backend whose library a profile can tune (its descriptor says), not pico's own algorithms.
bool is_library_backend(const std::string& backend) {
  const BackendDescriptor* d = find_backend(backend);
  return d != nullptr && d->tunable;
}

// The library a tunable backend's cases ran: NCCL's build, else the MPI library the worker met.
ProfileLibrary library_of(const ReportFacts& facts, const std::string& backend) {
  if (backend_descriptor(backend).kind == BackendKind::nccl) return {backend, "nccl", facts.nccl_build};
  return {backend, facts.mpi_library, facts.mpi_version};
}

// What besides the rule key and size defines a case; a profile cannot tell
// them apart, so one size may hold only one.
std::string variant_of(const Case& c) {
  return fmt::format("dtype {}, op {}, {}{} mode{}", name(c.dtype), name(c.op), c.in_place ? "in place, " : "",
                     name(c.mode), c.root != 0 ? fmt::format(", root {}", c.root) : "");
}

struct Candidate {
  std::string algorithm;
  std::map<std::string, double> params;
  std::vector<Observation> obs;
};

struct SizeData {
  std::string variant, variant_report;
  std::map<std::string, Candidate> candidates;  // by candidate_label; "default" is the library default
  std::vector<std::string> default_actual;      // what the library reported it ran for the default's cases
  std::set<std::string> race_dropped;           // candidate keys a race dropped here (in any report or repetition)
  MeasurementDoubt doubt;                       // its compared cases' (core/noise_guard.hpp)
};

using KeyTuple = std::tuple<Collective, int, int, int>;  // collective, comm size, nodes, ppn

// A rule key's nodes x ppn are the hosts the case's launch ran on (hosts_of_launch), never the platform's
// claim: where the two differ, a line per process count says which the rules took.
std::vector<std::string> placement_notes(const std::string& id, const nlohmann::json& report) {
  std::vector<std::string> out;
  const auto provenance = report.find("provenance");
  if (provenance == report.end()) return out;
  std::set<int> said;
  for (const PlacementMismatch& m : placement_mismatches(*provenance)) {
    if (!said.insert(m.np).second) continue;
    const int nodes = std::max(1, static_cast<int>(m.ran.size()));
    out.push_back(fmt::format("{}: np {} tuned as its ranks ran, on {} (rules for {} node(s) x {} ppn), not as the "
                              "platform's placement claims ({})",
                              id, m.np, placement_text(m.ran), nodes, std::max(1, m.np / nodes),
                              placement_text(m.planned)));
  }
  return out;
}

// One entry per launch of the chosen algorithm: its objective against the default's at that size.
std::vector<ProfileEvidence> evidence_of(const std::vector<Observation>& chosen, std::uint64_t bytes,
                                         double default_seconds, Objective objective) {
  std::vector<ProfileEvidence> ev;
  for (const Observation& o : chosen)
    ev.push_back({o.report_id, o.case_id, bytes, objective_time({o}, objective), default_seconds});
  return ev;
}

// The library default as the size's choice.
void keep_default(SizeChoice& choice) {
  choice.algorithm = "default";
  choice.params.clear();
  choice.speedup = {1, 1, 1, "the default itself"};
  choice.chosen_time_s = choice.default_time_s;
  choice.chosen_launches = choice.default_launches;
}

// How sure the choice is: the probability, over the bootstrap of every
// candidate at this size together, that it is within kNearFastest of the
// fastest. Below decide_from the size is undecided and keeps the default.
void decide(SizeChoice& choice, const SizeData& data, const std::string& chosen_key, const TuneOptions& options) {
  std::vector<const std::vector<Observation>*> all{&data.candidates.at("default").obs};
  std::size_t chosen = 0;
  for (const auto& [key, cand] : data.candidates) {
    if (key == "default") continue;
    if (key == chosen_key) chosen = all.size();
    all.push_back(&cand.obs);
  }
  if (all.size() < 2) return;  // nothing to choose between
  const auto near = near_fastest_probabilities(all, kNearFastest, options.objective);
  if (!near) return;
  choice.near_fastest = (*near)[chosen];
  if ((*near)[chosen] >= options.decide_from) return;
  choice.undecided = true;
  choice.considered = candidate_label(choice.algorithm, choice.params);
  choice.considered_near = (*near)[chosen];
  keep_default(choice);
  choice.near_fastest = (*near)[0];  // the kept default's own chance of being near the fastest
}

SizeChoice choose(std::uint64_t bytes, SizeData& data, const TuneOptions& options) {
  SizeChoice choice;
  choice.bytes = bytes;
  const std::vector<Observation>& base = data.candidates.at("default").obs;
  choice.default_time_s = choice.fastest_time_s = objective_time(base, options.objective);
  choice.default_launches = launch_count(base);
  keep_default(choice);
  choice.default_actual = data.default_actual;
  choice.fastest = "default";
  choice.fastest_speedup = choice.speedup;
  choice.default_obs = choice.fastest_obs = base;
  // The fastest as pico report names it (core/speedup.hpp's fastest_of), the default first so that it wins ties.
  std::vector<const Candidate*> order{&data.candidates.at("default")};
  for (const auto& [key, cand] : data.candidates)
    if (key != "default") order.push_back(&cand);
  std::vector<const std::vector<Observation>*> all_obs;
  for (const Candidate* c : order) all_obs.push_back(&c->obs);
  if (const std::size_t f = fastest_of(all_obs, options.objective); f != 0 && f != std::string::npos) {
    const Candidate& fastest = *order[f];
    choice.fastest = fastest.algorithm;
    choice.fastest_params = fastest.params;
    choice.fastest_speedup = speedup_of(base, fastest.obs, options.objective);
    choice.fastest_time_s = objective_time(fastest.obs, options.objective);
    choice.fastest_obs = fastest.obs;
  }
  double best_kept = 0;
  std::string chosen_key = "default";
  for (auto& [key, cand] : data.candidates) {
    if (key == "default") continue;
    const MeasuredSpeedup s = speedup_of(base, cand.obs, options.objective);
    if (s.low > 1 + options.min_gain && s.estimate > best_kept) {
      best_kept = s.estimate;
      choice.algorithm = cand.algorithm;
      choice.params = cand.params;
      choice.speedup = s;
      choice.chosen_time_s = objective_time(cand.obs, options.objective);
      choice.chosen_launches = launch_count(cand.obs);
      chosen_key = key;
    }
  }
  decide(choice, data, chosen_key, options);
  choice.doubt = data.doubt;
  choice.evidence = evidence_of(data.candidates.at(candidate_label(choice.algorithm, choice.params)).obs, bytes,
                                choice.default_time_s, options.objective);
  return choice;
}

// The algorithm most of the default's cases reported running (ties: the
// first in name order), "" where none named one.
std::string most_reported(const std::vector<std::string>& actual) {
  std::map<std::string, int> count;
  for (const std::string& a : actual)
    if (a != kUnknownFunctions) ++count[a];
  std::string most;
  int n = 0;
  for (const auto& [algorithm, c] : count)
    if (c > n) most = algorithm, n = c;
  return most;
}

// An undecided size's choice, every figure named in the line: a reader of
// the table alone must not need docs/tuning.md to know what P was.
std::string undecided_text(const SizeChoice& s, const TuneOptions& options) {
  // The test kept the default itself: "the test chose default" read as a contradiction.
  if (s.considered == "default")
    return fmt::format("undecided: default kept (no candidate passed the test, but only {:.0f}% of the bootstrap's "
                       "replicates put the default within {:.0f}% of the fastest; {:.0f}% decides)",
                       s.considered_near * 100, kNearFastest * 100, options.decide_from * 100);
  return fmt::format("undecided: default kept (the test chose {}, but only {:.0f}% of the bootstrap's replicates put "
                     "it within {:.0f}% of the fastest; {:.0f}% decides)",
                     s.considered, s.considered_near * 100, kNearFastest * 100, options.decide_from * 100);
}

}  // namespace

bool changes_anything(const TunedProfile& profile) {
  for (const ProfileRule& rule : profile.rules)
    for (const ProfileRange& range : rule.ranges)
      if (range.algorithm != "default") return true;
  return false;
}

std::string render_profile_written(const TunedProfile& profile, const std::string& path) {
  const std::string written = fmt::format("profile: {} ({})\n", path, counted(profile.rules.size(), "rule"));
  // Exporting a profile that keeps the default everywhere loads a file that changes nothing: no "next" for it.
  if (!changes_anything(profile))
    return written + wrapped("it keeps the library default at every size (nothing beat it with confidence), so "
                             "exporting it would change nothing; more rounds (timing.rounds) or launches "
                             "(repetitions) may decide",
                             kProseWidth);
  // The command on a line of its own, whole (a command cut in two does not paste), the formats named above it.
  return written + fmt::format("next, in the library's format (ompi-rules, mpich-json, ...: pico export --help):\n"
                               "  pico export {} --format FORMAT -o FILE\n",
                               path);
}

TuneAnalysis analyse_reports(const std::vector<LoadedReport>& given, const TuneOptions& options,
                             EvidenceKind kind) {
  if (given.empty()) throw InputError("pico tune", "no report given", "pico tune RESULTS_DIR...");
  TuneAnalysis analysis;
  // One run is one piece of evidence: its copies would shrink the intervals as if it had been measured again.
  DistinctRuns runs = distinct_runs(given);
  analysis.repeated = std::move(runs.repeated);
  const std::vector<LoadedReport>& reports = runs.reports;
  for (const LoadedReport& r : reports) require_evidence(r, kind);
  std::string first_identity, first_path;
  std::map<KeyTuple, std::map<std::uint64_t, SizeData>> grouped;
  std::size_t mock_ups = 0;
  for (const LoadedReport& r : reports) {
    const ReportFacts facts = report_facts(r.report);
    const NoiseContext noise(r.report);
    const std::string id = run_id_of(r);
    analysis.reports.push_back(id);
    if (const std::string text = report_oversubscription_text(r.report); !text.empty())
      analysis.warnings.push_back(fmt::format("{}: {}", id, text));
    for (std::string& note : placement_notes(id, r.report)) analysis.placement_notes.push_back(std::move(note));
    for (const CaseResult& cr : case_results_of(r.report)) {
      // Non-blocking and persistent calls run the library's non-blocking schedules, which no tuned rule sets;
      // a library's rules cannot see an alltoallv's count matrix, so only the uniform one is tuned.
      if (!is_library_backend(cr.c.backend) || !cr.measured() || call_form(cr.c) != CallForm::blocking) continue;
      if (const std::string counts = counts_option(cr.c); !counts.empty() && counts != "uniform") continue;
      if (is_guideline(cr.c.algorithm)) {  // no library can be made to run a mock-up as its algorithm
        ++mock_ups;
        continue;
      }
      const ProfileLibrary lib = library_of(facts, cr.c.backend);
      const std::string& platform = facts.platform;
      const std::string identity =
          fmt::format("{} {} (backend {}) on platform '{}'", lib.name,
                      lib.version.empty() ? "(version unknown)" : lib.version, lib.backend, platform);
      if (first_identity.empty()) {
        first_identity = identity, first_path = r.path;
        analysis.library = lib;
        analysis.platform = platform;
      } else if (identity != first_identity) {
        throw InputError(r.path,
                         fmt::format("measures {}, but {} measures {}: a profile is for one library, version and "
                                     "platform", identity, first_path, first_identity),
                         "tune each library's (and platform's) reports separately, one profile each");
      }
      const int nodes = facts.hosts_of_launch(cr.launch);
      const KeyTuple key{cr.c.collective, cr.c.np, nodes, std::max(1, cr.c.np / nodes)};
      SizeData& size = grouped[key][cr.c.bytes];
      const std::string variant = variant_of(cr.c);
      if (size.variant.empty()) {
        size.variant = variant, size.variant_report = r.path;
      } else if (size.variant != variant) {
        throw InputError(r.path,
                         fmt::format("{} np {} at {} B was measured with {} and with {} ({}): a profile chooses by "
                                     "size only", name(cr.c.collective), cr.c.np, cr.c.bytes, size.variant, variant,
                                     size.variant_report),
                         "tune reports of one datatype, op, in-place form and mode at a time");
      }
      // A race's survivors ran every round the default ran; a dropped candidate
      // only the first ones, so its samples are not comparable with the
      // default's pooled ones (a machine's slow period would decide), and the
      // race already found it slower than the best.
      if (cr.race && cr.race->fate == RaceFate::dropped) {
        size.race_dropped.insert(candidate_label(cr.c.algorithm, cr.c.params));
        continue;
      }
      size.doubt.merge(noise.doubt_of(cr));
      Candidate& cand = size.candidates[candidate_label(cr.c.algorithm, cr.c.params)];
      cand.algorithm = cr.c.algorithm;
      cand.params = cr.c.params;
      cand.obs.push_back(observation_of(cr, id));
      if (cr.c.algorithm == "default" && cr.selection && cr.selection->actual)
        size.default_actual.push_back(cr.selection->actual->algorithm.empty() ? kUnknownFunctions
                                                                              : cr.selection->actual->algorithm);
    }
  }
  analysis.mock_ups_left_out = mock_ups;
  if (grouped.empty())
    throw InputError(reports.front().path, "no measured case of an MPI library or NCCL",
                     "tune reads sweeps of backend mpi (or nccl): algorithms: all, with default");
  for (auto& [key, sizes] : grouped) {
    KeyChoices kc;
    kc.key = {std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key)};
    for (auto& [bytes, data] : sizes) {
      // Dropped in one race, a candidate is out at this size: its surviving
      // repetitions alone would judge it on its good runs.
      for (const std::string& key : data.race_dropped)
        if (key != "default") data.candidates.erase(key);
      if (!data.candidates.contains("default")) continue;  // nothing to compare with: the range around it decides
      kc.sizes.push_back(choose(bytes, data, options));
      kc.sizes.back().candidates = static_cast<int>(data.candidates.size() + data.race_dropped.size());
      kc.sizes.back().race_dropped = static_cast<int>(data.race_dropped.size());
    }
    if (!kc.sizes.empty()) analysis.keys.push_back(std::move(kc));
  }
  if (analysis.keys.empty())
    throw InputError(reports.front().path, "no size was measured with the library's default",
                     "sweep with `default` among the algorithms (algorithms: all includes it)");
  return analysis;
}

void require_rivals(const TuneAnalysis& analysis, const std::string& where) {
  for (const KeyChoices& kc : analysis.keys)
    for (const SizeChoice& s : kc.sizes)
      if (s.candidates > 1) return;
  // Only the default at every size: an all-default profile would read as "the default was the fastest".
  throw InputError(where, "no size was measured with an algorithm besides the library's default: nothing to choose from",
                   "sweep the algorithms (an experiment's `algorithms: all`, or pico bench COLLECTIVE --algorithm all), "
                   "then tune that report");
}

TunedProfile profile_from_analysis(const TuneAnalysis& analysis, const TuneOptions& options) {
  TunedProfile profile;
  profile.library = analysis.library;
  profile.platform = analysis.platform;
  profile.objective = std::string(name(options.objective));
  profile.min_gain = options.min_gain;
  profile.confidence = 0.95;
  profile.decide_from = options.decide_from;
  profile.test =
      "lower bound of the speedup's 95% interval above 1 + min_gain: hierarchical bootstrap over launches, then "
      "rounds (paired where the candidates ran in the same rounds) or samples, else the envelope of the launches' "
      "confidence intervals; kept where at least decide_from of the replicates put the choice within 5% of the "
      "fastest, else undecided and the default (docs/tuning.md#the-statistical-test)";
  profile.reports = analysis.reports;
  profile.warnings = analysis.warnings;
  for (const KeyChoices& kc : analysis.keys) {
    ProfileRule rule;
    rule.collective = kc.key.collective;
    rule.comm_size = kc.key.comm_size;
    rule.nodes = kc.key.nodes;
    rule.ppn = kc.key.ppn;
    for (std::size_t i = 0; i < kc.sizes.size(); ++i) {
      const SizeChoice& s = kc.sizes[i];
      const bool same = !rule.ranges.empty() && rule.ranges.back().algorithm == s.algorithm &&
                        rule.ranges.back().params == s.params;
      if (!same) {
        ProfileRange range;
        range.min_bytes = i == 0 ? 0 : range_boundary(kc.sizes[i - 1].bytes, s.bytes);
        if (!rule.ranges.empty()) rule.ranges.back().max_bytes = range.min_bytes - 1;
        range.algorithm = s.algorithm;
        range.params = s.params;
        if (s.algorithm != "default") range.speedup = SpeedupInterval{s.speedup.estimate, s.speedup.low, s.speedup.high};
        rule.ranges.push_back(std::move(range));
      } else if (s.algorithm != "default") {
        // The range's expected speedup is its weakest size's.
        ProfileRange& r = rule.ranges.back();
        if (s.speedup.low < r.speedup->low) r.speedup = SpeedupInterval{s.speedup.estimate, s.speedup.low, s.speedup.high};
      }
      ProfileRange& r = rule.ranges.back();
      r.measured_bytes.push_back(s.bytes);
      if (s.undecided) r.undecided_bytes.push_back(s.bytes);
      if (s.near_fastest) r.near_fastest = std::min(r.near_fastest.value_or(1.0), *s.near_fastest);
      r.evidence.insert(r.evidence.end(), s.evidence.begin(), s.evidence.end());
      if (const std::string ran = most_reported(s.default_actual); !ran.empty()) r.default_ran.push_back({s.bytes, ran});
    }
    rule.ranges.back().max_bytes = std::nullopt;  // unbounded
    profile.rules.push_back(std::move(rule));
  }
  return profile;
}

std::string render_tune_summary(const TuneAnalysis& analysis, const TuneOptions& options, std::size_t width) {
  // Two lines, not one wrapped: "P(within 5% of the fastest)" is one figure's name and stays on one line.
  std::string out = fmt::format("{} {} on {}: objective {}, min gain {:.3g}%,\n  decided from P(within {:.0f}% of the "
                                "fastest) >= {:.2g}\n",
                                analysis.library.name, analysis.library.version, analysis.platform,
                                name(options.objective), options.min_gain * 100, kNearFastest * 100,
                                options.decide_from);
  static constexpr std::array<TextColumn, 9> kColumns = {{{"collective", false},
                                                          {"np", true},
                                                          {"nodesxppn", true},
                                                          {"size", true},
                                                          {"fastest", false},
                                                          {"speedup", true},
                                                          {"95% interval", true},
                                                          {"P", true},
                                                          {"choice", false}}};
  constexpr std::size_t kFastestColumn = 4, kChoiceColumn = 8;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> undecided_texts;  // per row, "" where decided: a note under a table too wide for them
  int losses = 0, sizes = 0, undecided = 0;
  std::vector<MeasurementDoubt> doubts;
  for (const KeyChoices& kc : analysis.keys)
    for (const SizeChoice& s : kc.sizes) {
      ++sizes;
      undecided += s.undecided;
      doubts.push_back(s.doubt);
      const bool default_fastest = s.fastest == "default" && !s.undecided;
      const bool kept = s.algorithm == "default";
      losses += !(default_fastest && kept);
      // A noisy size is shown even where the default was the fastest: that answer is as much in doubt. (A
      // choice there is one whose paired speedup passed the test while its median was not the least.)
      if (default_fastest && kept && !s.doubt.any()) continue;
      const std::string mark = s.doubt.any() ? std::string(kNoiseMark) : "";
      const std::string choice =
          s.undecided ? undecided_text(s, options)
          // The fastest's label is in its own column already: repeated here it made CI's table 115 columns wide.
          : !kept ? (s.algorithm == s.fastest && s.params == s.fastest_params ? std::string("the fastest")
                                                                               : candidate_label(s.algorithm, s.params))
          : default_fastest ? std::string("default (the fastest)")
                            : std::string("default (not confident)");
      undecided_texts.push_back(s.undecided ? choice : "");
      rows.push_back({std::string(name(kc.key.collective)), std::to_string(kc.key.comm_size),
                      fmt::format("{}x{}", kc.key.nodes, kc.key.ppn), size_text(s.bytes),
                      candidate_label(s.fastest, s.fastest_params), speedup_estimate_text(s.fastest_speedup) + mark,
                      speedup_interval_text(s.fastest_speedup),
                      s.near_fastest ? fmt::format("{:.2f}", *s.near_fastest) : std::string("-"), choice});
    }
  // What the speedup column is, in the words every view uses (core/speedup.hpp): the fastest's over the default.
  out += fmt::format("speedup: the fastest's over the default, where\n{}\n", kSpeedupDefinition);
  out += wrapped(fmt::format("P: the probability, over the bootstrap's replicates, that the choice (the kept default "
                             "where undecided) is within {:.0f}% of the fastest; a choice stands from {:.0f}%",
                             kNearFastest * 100, options.decide_from * 100),
                 width);
  // Wider than the terminal: each undecided size's reason said once under the table (reports/fitted_table.hpp).
  TableNotes notes("size");
  if (table_width(kColumns, rows) > width)
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (!undecided_texts[i].empty())
        rows[i][kChoiceColumn] = fmt::format("undecided [{}]", notes.add(undecided_texts[i]));
  out += fitted_table(kColumns, rows, width, {}, {kFastestColumn, kChoiceColumn}) + notes.lines(width);
  if (losses == 0) out += "the default was the fastest at every measured size\n";
  if (undecided > 0)
    out += wrapped(fmt::format("{} of {} undecided: the choice is within {:.0f}% of the fastest in fewer than {:.0f}% "
                               "of the bootstrap's replicates, so the default stays; more rounds (timing.rounds) or "
                               "launches (repetitions) may decide them",
                               undecided, counted(static_cast<std::size_t>(sizes), "size"), kNearFastest * 100,
                               options.decide_from * 100),
                   width);
  out += noise_legend(doubts, static_cast<std::size_t>(sizes));
  for (const std::string& line : analysis.repeated) out += line + "\n";
  for (const std::string& line : analysis.placement_notes) out += wrapped(line, width);
  if (analysis.mock_ups_left_out > 0)
    out += fmt::format("{} left out: a guideline's mock-up composes the library's own collectives, and no library can "
                       "be made to run one as its algorithm (pico report's guidelines section compares them with the "
                       "default)\n",
                       counted(analysis.mock_ups_left_out, "mock-up case"));
  int dropped = 0;
  for (const KeyChoices& kc : analysis.keys)
    for (const SizeChoice& s : kc.sizes) dropped += s.race_dropped;
  if (dropped > 0)
    out += fmt::format("{} candidate(s) a race dropped were not compared with the default (each case's race record "
                       "says when and why)\n", dropped);
  return out;
}

}  // namespace pico
