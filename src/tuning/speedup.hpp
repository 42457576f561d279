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

#include "core/bootstrap.hpp"
#include "core/stats.hpp"

namespace pico {

struct MeasuredSpeedup {
  double estimate = 0;  // objective(default) / objective(candidate); > 1: the candidate is faster
  double low = 0;       // 95% interval; low = 0 when the data allow no interval
  double high = 0;
  std::string method;   // bootstrap | ci-envelope | none (why)
};

// The speedup of `candidate` over `baseline` (the default): the hierarchical
// bootstrap (core/bootstrap.hpp; paired round by round where both were
// measured in the same rounds), else the envelope of the launches' intervals.
// Deterministic: the bootstrap's generator is seeded from the data's shape.
MeasuredSpeedup speedup_of(const std::vector<Observation>& baseline, const std::vector<Observation>& candidate,
                           Objective objective);

// Launches that measured the observations (distinct launch indices, per report).
int launch_count(const std::vector<Observation>& obs);

}  // namespace pico
