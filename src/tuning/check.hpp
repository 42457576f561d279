// SPDX-License-Identifier: BSD-3-Clause
// pico tune --check: did loading the profile pay off? Per measured size of
// each rule, the library default with the profile loaded (runs whose
// provenance names a profile) against the sweep's best and the sweep's
// default (runs without one), and, where the reports say what the library
// ran (selection.actual), whether it ran the profile's algorithm.
#pragma once

#include <string>
#include <vector>

#include "tuning/profile.hpp"
#include "tuning/tune.hpp"

namespace pico {

struct CheckRow {
  RuleShape key;
  std::uint64_t bytes = 0;
  std::string profile_choice;  // the profile's algorithm at this size
  std::vector<int> predicted_from;  // the rule's measured sizes when the profile predicted it (--predict-np)
  double tuned_s = 0;          // the default with the profile loaded
  double best_s = 0;           // the sweep's fastest algorithm
  std::string best;            // its name
  double old_default_s = 0;    // the sweep's default
  int tuned_launches = 0, sweep_launches = 0;
  std::string ran;             // "yes", "no: ran X", or "" when the reports do not say
  // tuned's speedup over the old default and over the best (> 1: tuned faster), with 95% intervals.
  MeasuredSpeedup vs_default, vs_best;
  std::string verdict;  // ok | within noise | SLOWER | FAR (check.cpp says when)
};

struct CheckResult {
  std::vector<CheckRow> rows;
  std::vector<std::string> unmatched;  // sizes measured on one side only
  int failed = 0;                       // rows SLOWER or FAR: pico tune --check exits 1
  int within_noise = 0;                 // rows whose interval straddles a bound
};

// Throws InputError when no report ran with a profile, none without, or the
// profile's library is not the reports'.
CheckResult check_profile_against(const TunedProfile& profile, const std::string& profile_path,
                                  const std::vector<LoadedReport>& reports, const TuneOptions& options);

std::string render_check(const CheckResult& result, const TuneOptions& options);

}  // namespace pico
