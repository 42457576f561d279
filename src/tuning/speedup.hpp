// SPDX-License-Identifier: BSD-3-Clause
// Is a candidate algorithm really faster than the library default at one
// size? The speedup (default time / candidate time) with a 95% interval,
// from whatever variation the reports hold: per-sample data (hierarchical
// bootstrap over launches, then samples), else each case's timing statistics
// (the envelope of the medians' confidence intervals over launches).
// The test is described for users in docs/tuning.md#the-statistical-test.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/stats.hpp"

namespace pico {

enum class Objective { median, p95 };
std::string_view name(Objective o);
std::optional<Objective> parse_objective(std::string_view s);

// One measured case of one algorithm at one size: one launch's worth.
struct Observation {
  TimingStats stats;
  std::optional<std::vector<double>> samples_s;
  int launch = -1;
  std::string report_id;
  std::string case_id;
};

struct MeasuredSpeedup {
  double estimate = 0;  // objective(default) / objective(candidate); > 1: the candidate is faster
  double low = 0;       // 95% interval; low = 0 when the data allow no interval
  double high = 0;
  std::string method;   // bootstrap | ci-envelope | none (why)
};

// The objective over all observations pooled: median or p95 of every sample
// where samples exist, else the median over launches of each launch's value.
double objective_time(const std::vector<Observation>& obs, Objective objective);

// The speedup of `candidate` over `baseline` (the default). Deterministic:
// the bootstrap's generator is seeded from the data's sizes.
MeasuredSpeedup speedup_of(const std::vector<Observation>& baseline, const std::vector<Observation>& candidate,
                           Objective objective);

// Launches that measured the observations (distinct launch indices, per report).
int launch_count(const std::vector<Observation>& obs);

}  // namespace pico
