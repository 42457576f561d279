// SPDX-License-Identifier: BSD-3-Clause
// Per-rank timing of one case (docs/methodology.md#per-rank-timing): every
// rank's arrival at and exit from each timed sample on rank 0's clock, and the
// summary the report keeps for every case (its `rank_timing`): who was slowest
// how often, the imbalance, and which ranks held the calls up, by arriving
// late or by leaving late after arriving on time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// Every rank's samples of one case on the common clock (rank 0's), rank-major:
// rank r's sample i at r * samples + i.
struct RankTimes {
  int ranks = 0;
  std::int64_t samples = 0;
  std::vector<double> arrival_s;
  std::vector<double> exit_s;
  double arrival(int r, std::int64_t i) const { return arrival_s[static_cast<std::size_t>(r * samples + i)]; }
  double exit(int r, std::int64_t i) const { return exit_s[static_cast<std::size_t>(r * samples + i)]; }
};

// A share of calls with its 95% interval (Wilson's score interval: sound at 0
// and at all calls, unlike the normal approximation).
struct Share {
  std::int64_t calls = 0;
  std::int64_t of = 0;
  double low = 0;
  double high = 0;
  double value() const { return of > 0 ? static_cast<double>(calls) / static_cast<double>(of) : 0; }
};
Share wilson_share(std::int64_t calls, std::int64_t of);
// A share as report.json writes it: calls, of, share and its interval's ends.
nlohmann::json share_json(const Share& s);

// The two ways a rank holds a call up.
inline constexpr std::string_view kLateArrival = "late_arrival";    // it entered after the others
inline constexpr std::string_view kSlowProgress = "slow_progress";  // it entered on time and left after the others

// A rank that held up most of a case's calls: the lower end of its share's 95%
// interval is at least kStragglerShare, each counted call late by more than
// the call's threshold (lateness_threshold_s).
struct Straggler {
  int rank = 0;
  std::string host;
  std::string kind;  // kLateArrival | kSlowProgress
  Share share;
  double excess_s = 0;  // median lateness over the calls counted
};
inline constexpr double kStragglerShare = 0.5;

// What the summary is judged against: the launch's clock residual and the
// barrier's own stagger (worker/clock_sync.hpp), and which kinds of
// straggler this case can show. A rank leaves late by the collective's own
// order where its data does not make every rank wait for every other (a
// root, a scan's last rank); and without a barrier before each sample a
// rank's arrival is its previous exit.
struct RankTimingBasis {
  double clock_residual_s = 0;
  double barrier_stagger_s = 0;
  bool judges_late_arrival = true;
  bool judges_slow_progress = true;
};

// A rank's lateness in a call is how long after the earliest rank it entered
// (or left). The call's threshold: several times the clock's residual
// (arrivals closer than that cannot be told apart), four times the barrier's
// stagger (ranks leave the barrier before a sample that far apart), and half
// the fastest rank's time in the call: the call's own cost, which noise only
// lengthens (a rank late by less than half a call is not holding it up; the
// call's span would grow with any rank's noise after it, and hide the late
// rank behind it).
inline constexpr double kResidualsPerThreshold = 4;
inline constexpr double kStaggersPerThreshold = 4;
inline constexpr double kThresholdOfFastest = 0.5;
// And a rank that waited for another is late only beyond half that wait: for
// arriving, the previous sample's last exit - first exit; for leaving, this
// sample's last arrival - first (it wakes up late after a long wait).
inline constexpr double kOfWaitPerThreshold = 0.5;
double lateness_threshold_s(const RankTimingBasis& basis, double fastest_s);

struct RankTimingSummary {
  int ranks = 0;
  std::int64_t samples = 0;
  RankTimingBasis basis;
  double median_call_s = 0;     // median over calls of the median rank's duration
  // Median over calls of max/median over ranks of the per-rank duration.
  double imbalance = 1;
  // Per rank: calls it was the slowest (longest duration) in, arrived late
  // in, progressed slowly in (both: beyond the call's threshold).
  std::vector<std::int64_t> slowest_calls;
  std::vector<std::int64_t> late_arrival_calls;
  std::vector<std::int64_t> slow_progress_calls;
  int slowest_rank = 0;  // slowest most often
  Share slowest_rank_share;
  std::string slowest_host;  // the host whose ranks were slowest most often ("" without hosts)
  Share slowest_host_share;
  std::vector<Straggler> stragglers;
};

// hosts: each rank's host, or empty. Stragglers are named only of the kinds the basis judges.
RankTimingSummary summarize_rank_times(const RankTimes& t, std::span<const std::string> hosts,
                                       const RankTimingBasis& basis);

// The report's `rank_timing` (docs/report.md), and back (throws std::runtime_error where malformed).
nlohmann::json to_json(const RankTimingSummary& s);
RankTimingSummary rank_timing_from_json(const nlohmann::json& j);

}  // namespace pico
