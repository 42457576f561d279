// SPDX-License-Identifier: BSD-3-Clause
// pico tune: from sweep reports to a tuned profile. Per (collective, comm
// size, nodes x ppn, message size) the fastest algorithm of the library,
// kept only where it beats the library default by more than min_gain with
// 95% confidence (core/speedup.hpp); neighbouring sizes with the same
// choice merge into ranges whose boundaries lie at the geometric midpoint
// between measured sizes. docs/tuning.md says it for users.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuning/profile.hpp"
#include "core/noise_guard.hpp"
#include "core/speedup.hpp"
#include "reports/fitted_table.hpp"

namespace pico {

struct TuneOptions {
  Objective objective = Objective::median;
  double min_gain = 0.05;  // fraction: the candidate must be > (1 + min_gain) times faster
  // A size's choice stands when at least this share of the bootstrap's
  // replicates put it within kNearFastest of the fastest candidate; below,
  // the size is undecided and keeps the library default (docs/tuning.md#undecided).
  double decide_from = 0.8;
};

// What "near the fastest" means for a decision's confidence: within 5%.
inline constexpr double kNearFastest = 0.05;

// A report as loaded (load_report) and the name the user gave it.
struct LoadedReport {
  std::string path;
  nlohmann::json report;
};

// The communicator shape a rule is for: (collective, comm size, nodes x ppn).
struct RuleShape {
  Collective collective = Collective::allreduce;
  int comm_size = 0;
  int nodes = 0;
  int ppn = 0;
};

// What was measured at one size of one rule key, and what tune made of it.
struct SizeChoice {
  std::uint64_t bytes = 0;
  std::string algorithm = "default";  // the choice: "default" unless a candidate passed the test
  std::map<std::string, double> params;
  MeasuredSpeedup speedup;             // of the choice (1 for default)
  std::string fastest;                 // the fastest candidate by the objective, even if not kept
  std::map<std::string, double> fastest_params;
  MeasuredSpeedup fastest_speedup;     // its speedup over default
  // The probability that the choice is within kNearFastest of the fastest
  // candidate (stats/bootstrap.hpp); nullopt where the data allow no bootstrap.
  std::optional<double> near_fastest;
  // near_fastest below decide_from: the default is kept, and `considered` is
  // what the speedup test alone would have chosen.
  bool undecided = false;
  std::string considered;
  double considered_near = 0;  // that candidate's own probability
  double default_time_s = 0;
  double chosen_time_s = 0;
  double fastest_time_s = 0;
  // What the library reported it ran for the default's cases
  // (selection.actual, catalogue names), where the reports say.
  std::vector<std::string> default_actual;
  int default_launches = 0, chosen_launches = 0;
  int candidates = 0;  // algorithms (and parameter sets) measured at this size, the default included
  // Of them, those a race dropped (timing.race): not compared with the
  // default, having lost to the race's best in the rounds they ran.
  int race_dropped = 0;
  // The default's and the fastest candidate's observations, for tune --check's intervals.
  std::vector<Observation> default_obs, fastest_obs;
  std::vector<ProfileEvidence> evidence;  // the chosen algorithm's cases (the default's where it stays)
  // Its candidates' measurement doubt (core/noise_guard.hpp): where any, the row is marked and says so.
  MeasurementDoubt doubt;
};

// One rule key and its sizes, ascending.
struct KeyChoices {
  RuleShape key;
  std::vector<SizeChoice> sizes;
};

// The choices per rule key, each run counted once however often given.
// Throws InputError when the reports mix libraries, versions or platforms,
// hold no library default to compare with, or several datatypes/ops/modes at
// one size, when two reports of one run differ, or when a report is no
// evidence of `kind` (tuning/run_evidence.hpp: a sweep with a profile loaded,
// a run that measured nothing).
struct TuneAnalysis {
  ProfileLibrary library;
  std::string platform;
  std::vector<std::string> reports;  // run ids, each once
  std::vector<std::string> repeated;  // a line per run given more than once (tuning/run_evidence.hpp)
  std::vector<std::string> warnings;  // "ID: oversubscribed (...)" per report whose ranks outnumbered cores
  // "ID: np 4 tuned as its ranks ran, on 1 node (...)" per process count whose hosts differ from the
  // platform's placement (core/placement_mismatch.hpp): the rules are keyed on the hosts seen.
  std::vector<std::string> placement_notes;
  // Measured guideline mock-ups (core/guidelines.hpp) left out: no library can be made to run one.
  std::size_t mock_ups_left_out = 0;
  std::vector<KeyChoices> keys;
};
// What a set of reports is evidence of: a sweep (the library's default
// measured as it comes, no profile loaded) or runs made with a profile loaded
// (tune --check's tuned side).
enum class EvidenceKind { sweep, tuned };
TuneAnalysis analyse_reports(const std::vector<LoadedReport>& reports, const TuneOptions& options,
                             EvidenceKind kind = EvidenceKind::sweep);

// InputError (WHERE `where`) when no size measured anything but the default:
// `pico tune` on a report without a sweep has nothing to choose from.
void require_rivals(const TuneAnalysis& analysis, const std::string& where);

// Rules from the per-size choices: merged ranges, boundaries at geometric midpoints.
TunedProfile profile_from_analysis(const TuneAnalysis& analysis, const TuneOptions& options);

// The printed summary: one line per size where the default loses. width: the
// table fitted to it as pico run's is (reports/fitted_table.hpp; where wider,
// an undecided size's reason is a note under the table, "undecided [1]");
// pico tune prints 100 columns, --wide every column in full.
std::string render_tune_summary(const TuneAnalysis& analysis, const TuneOptions& options,
                                std::size_t width = kDefaultTableWidth);

// Whether any range of the profile chooses something besides the library default.
bool changes_anything(const TunedProfile& profile);

// What `pico tune -o PATH` prints once the profile is written: where, and the
// export to run next, or, for a profile that keeps the default everywhere,
// that exporting it would change nothing.
std::string render_profile_written(const TunedProfile& profile, const std::string& path);

}  // namespace pico
