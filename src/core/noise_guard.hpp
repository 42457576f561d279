// SPDX-License-Identifier: BSD-3-Clause
// The noise guard, defined once: when a size's measurement cannot support a
// verdict (a winner, a speedup, faster or slower), whatever the figures say.
// Every view that names a winner or a speedup (pico report in every format,
// the HTML page's data, pico compare, pico tune) marks such a size with
// kNoiseMark and says why with the texts below (issue 65: p95 of 16-90 ms
// against medians of microseconds, target_ci never met, and the summaries
// still named winners). The bounds and why: docs/methodology.md#noise-guard.
//
// A measured case is in doubt for any of three reasons:
//  - interval: its median's 95% interval is wider than kIntervalOverTarget
//    times the experiment's timing.target_ci (half-width over the median;
//    a case without a recorded interval is not judged by it);
//  - tail: its p95 is more than kTailOverMedian times its median;
//  - load: its launch's ranks waited for cores: they outnumbered a host's
//    cores (provenance), or the load beside them on the front end's host
//    (run.host_load, core/host_load.hpp) and the ranks came to more than the
//    cores plus kLoadSlack.
// A size is in doubt where any case its verdict weighs is.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_result.hpp"
#include "stats/stats.hpp"

namespace pico {

// A stop at the time budget just short of target_ci still leaves an interval
// a few percent wide, far narrower than the differences a verdict names; at
// twice the target the median itself is no longer pinned down.
inline constexpr double kIntervalOverTarget = 2.0;
// One sample in twenty four times the median: the ranks were descheduled
// (a quiet host's p95 stays within about 2x of the median even at 1 us).
inline constexpr double kTailOverMedian = 4.0;
// A 1-minute load average of up to half a process beside the ranks is the
// host's own daemons and pico's front end.
inline constexpr double kLoadSlack = 0.5;

// The mark beside a winner, a speedup or a verdict in doubt.
inline constexpr std::string_view kNoiseMark = "?";

struct MeasurementDoubt {
  double interval = 0;   // the widest half-width over the bound (a fraction of the median); 0: none
  double target_ci = 0;  // the target it was held to
  double tail = 0;       // the largest p95 / median over the bound; 0: none
  std::string load;      // why the ranks waited for cores; "": they did not
  bool any() const { return interval > 0 || tail > 0 || !load.empty(); }
  // The other's reasons added (the widest interval, the largest tail, the first load).
  void merge(const MeasurementDoubt& other);
  // Each reason with its figure: "95% interval of the median +-6.1% (over 2 x target_ci 2%)",
  // "p95 12.3x the median (over 4x)", "load: ...".
  std::vector<std::string> reasons() const;
  std::string text() const;  // reasons() joined by "; "
};

// What a case's own figures say, against its experiment's target_ci, and the
// load its launch ran under (`load`: why its ranks waited, "" where they did not).
MeasurementDoubt doubt_of(const TimingStats& t, double target_ci, const std::string& load);

// Whether `ranks` on `cores` with `beside` of other load waited for cores.
bool load_above_cores(double beside, int ranks, int cores);

// What one report says about the conditions its cases ran under, read once.
class NoiseContext {
 public:
  explicit NoiseContext(const nlohmann::json& report);
  double target_ci() const { return target_ci_; }
  // The doubt of one measured case of that report (none for an unmeasured one).
  MeasurementDoubt doubt_of(const CaseResult& r) const;

 private:
  double target_ci_ = 0.02;
  std::map<int, std::string> loaded_launches_;  // launch -> why its ranks waited for cores
  std::string loaded_all_;                      // a report without per-launch placement: why, "" none
};

// The lines under a view that marked sizes: how many of how many sizes are in
// doubt and for which reasons, and what to run to measure better; "" when none.
// `sizes` counts the sizes the view shows.
std::string noise_legend(const std::vector<MeasurementDoubt>& per_size, std::size_t sizes);

}  // namespace pico
