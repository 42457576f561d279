// SPDX-License-Identifier: BSD-3-Clause
// pico tune --check: did loading the profile pay off? Per measured size of
// each rule, the library default with the profile loaded (runs whose
// provenance names a profile) against the sweep's best and the sweep's
// default (runs without one), and, where the reports say what the library
// ran (selection.actual), whether it ran the profile's algorithm.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tuning/profile.hpp"
#include "tuning/tune.hpp"

namespace pico {

struct CheckRow {
  RuleShape key;
  std::uint64_t bytes = 0;
  // The profile's algorithm at this size as its export applies it (tuning/exported_choice.hpp): "default"
  // where no rule applies there, "(no rule)" where the profile has none for the collective.
  std::string profile_choice;
  std::vector<int> predicted_from;  // the rule's measured sizes when the profile predicted it (--predict-np)
  double tuned_s = 0;          // the default with the profile loaded
  double best_s = 0;           // the sweep's fastest algorithm
  std::string best;            // its name
  double old_default_s = 0;    // the sweep's default
  int tuned_launches = 0, sweep_launches = 0;
  std::string ran;             // "yes", "no: ran X", or "" when the reports do not say
  // tuned's speedup over the old default and over the best (> 1: tuned faster), with 95% intervals.
  MeasuredSpeedup vs_default, vs_best;
  std::string verdict;  // unchanged | ok | within noise | SLOWER | FAR (check.cpp says when)
  bool changed() const { return profile_choice != "default" && profile_choice != "(no rule)"; }
};

// How much tuned/old default moves between the runs where nothing changed:
// at the sizes whose profile keeps the default, the tuned run measures the
// same algorithm as the sweep, so their speedup estimates are run-to-run
// drift alone. Its 2.5th to 97.5th percentile is the noise a changed size's
// speedup must leave before it is called SLOWER or FAR.
struct DriftBand {
  double low = 1, high = 1;
  int sizes = 0;
};

struct CheckResult {
  std::vector<CheckRow> rows;
  std::vector<std::string> unmatched;  // sizes measured on one side only
  int failed = 0;                       // rows SLOWER or FAR: pico tune --check exits 1
  int within_noise = 0;                 // rows whose interval or the drift band straddles a bound
  int unchanged = 0;                    // rows whose profile keeps the default: not judged
  std::optional<DriftBand> drift;       // from the unchanged rows, where there are enough of them
  std::vector<std::string> repeated;    // a line per run given more than once (counted once)
};

// Each run counted once (tuning/run_evidence.hpp). Throws InputError when no
// report ran with a profile, none without, a tuned run loaded another profile
// than the one at profile_path (its file's profile_file_hash is
// profile_hash), a run measured nothing, or the profile's library is not the
// reports'.
CheckResult check_profile_against(const TunedProfile& profile, const std::string& profile_path,
                                  const std::string& profile_hash, const std::vector<LoadedReport>& reports,
                                  const TuneOptions& options);

// The check's table and verdicts; width: the table fitted to it as pico
// tune's is (tuning/tune.hpp; where wider, "no: ran X" is a note under the
// table, "no [1]"); tune --check prints 100 columns, --wide every column.
std::string render_check(const CheckResult& result, const TuneOptions& options,
                         std::size_t width = kDefaultTableWidth);

}  // namespace pico
