// SPDX-License-Identifier: BSD-3-Clause
// The speedup of a candidate over a baseline, defined once: every view that
// prints one (pico compare, pico report's comparison of two reports in every
// format, the HTML page's data, pico tune and tune --check) takes it from
// speedup_of and prints it with the texts below, so they agree to the digit
// (issue 65: compare said 3.297x faster where the page said 0.87x of the
// time, undecided). The definition, for users: docs/methodology.md#speedup.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/stats.hpp"

namespace pico {

// What the figure is, said beside it (a table's heading lines).
// Lines of at most 100 columns, each but the last ended by a newline.
inline constexpr std::string_view kSpeedupDefinition =
    "speedup = baseline time / candidate time (> 1: the candidate is faster), time = pooled median\n"
    "  (tune --objective p95: p95; candidates in the same rounds of one launch: the robust mean of\n"
    "  their per-round time ratios); 95% CI = percentile bootstrap of that same ratio over launches,\n"
    "  then rounds or samples (else the envelope of the medians' 95% intervals), always holding it;\n"
    "  verdict: faster / slower where the whole CI lies above / below 1, else undecided";

struct MeasuredSpeedup {
  double estimate = 0;  // objective(baseline) / objective(candidate); > 1: the candidate is faster
  double low = 0;       // 95% interval, always holding the estimate; low = high = 0 when the data allow none
  double high = 0;
  std::string method;   // how the interval was drawn, or "none: why"
  bool has_interval() const { return low > 0; }
  // "faster" when the whole interval lies above 1, "slower" below, else (an
  // interval across 1, or none) "undecided".
  std::string_view verdict() const;
};

// The speedup of `candidate` over `baseline`: the hierarchical bootstrap
// (stats/bootstrap.hpp; paired round by round where both were measured in the
// same rounds), else the envelope of the launches' intervals. Deterministic:
// the bootstrap's generator is seeded from the data's shape.
MeasuredSpeedup speedup_of(const std::vector<Observation>& baseline, const std::vector<Observation>& candidate,
                           Objective objective);

// The fastest of one size's candidates, defined once for pico tune's
// "fastest", pico report's (every format) and compare --best's: the least
// objective_time (the pooled median, the figure the tables print; p95 for
// tune --objective p95), ties to the first. Not the largest speedup: where
// the candidates ran in the same rounds that is a robust mean of round ratios,
// which can rank two near-equal candidates the other way round from their
// medians (issue 65: tune said nonoverlapping, the report recursive_doubling).
// Null entries and empty candidates are never the fastest; npos when none is.
std::size_t fastest_of(const std::vector<const std::vector<Observation>*>& candidates, Objective objective);

// One speedup figure, as every view prints it: three decimals ("1.158"), and
// three significant digits below 0.1 ("0.000512", not "0.000": issue 65's
// tune --check printed "0.000x [0.000, 1.084]"). Never an exponent.
std::string speedup_figure(double v);

// How every view prints the figure: "1.158x", "[0.912, 1.402]" ("none" without an interval).
std::string speedup_estimate_text(const MeasuredSpeedup& s);
std::string speedup_interval_text(const MeasuredSpeedup& s);

// Launches that measured the observations (distinct launch indices, per report).
int launch_count(const std::vector<Observation>& obs);

}  // namespace pico
