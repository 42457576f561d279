// SPDX-License-Identifier: BSD-3-Clause
// Racing (docs/tuning.md#racing): the candidates of one choice (one
// collective, one size, one communicator) are measured in rounds, each round
// a short slice of every candidate still in the race, and a candidate is
// dropped once its median's 95% interval lies wholly above the best
// candidate's. The budget left goes to those still in contention and to the
// library's default, which is never dropped (pico tune compares every choice
// with it). The measurement is a callback, so the decisions are tested on
// synthetic distributions and taken alike on every rank from the same
// (MAX-allreduced) samples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

// The experiment's timing.race: a budget per launch (one communicator size).
struct RaceSpec {
  double budget_s = 0;
  // Race every other size of each series first; a size between two whose
  // winners agree is not measured (the profile's range covers it).
  bool refine = true;
};

struct RaceEntrant {
  std::string label;  // how records name it: "chain segment_size=8192"
  bool keep = false;  // never dropped: the default every choice is compared with
};

// One round of one entrant, as the callback measured it.
struct RoundResult {
  std::vector<double> samples;  // seconds, identical on every rank
  double spent_s = 0;           // wall time of the round, set-up included (the same on every rank)
  std::string failure;          // non-empty: the entrant failed, with why
};

enum class RaceFate { survived, dropped, failed };
std::string_view name(RaceFate f);
std::optional<RaceFate> parse_race_fate(std::string_view s);

struct EntrantOutcome {
  std::vector<double> samples;  // pooled over the rounds it ran
  int rounds = 0;               // rounds it was measured in
  // Per round it ran, in round order: how many of `samples` that round took,
  // and where in the round's order it was measured (0: first).
  std::vector<std::size_t> round_sizes;
  std::vector<int> positions;
  RaceFate fate = RaceFate::survived;
  std::string reason;           // why dropped or failed
};

// Each round's median of an entrant's samples, in round order (a round it
// failed in, which kept no samples, has none).
std::vector<double> round_medians(const EntrantOutcome& e);

struct RaceOutcome {
  std::vector<EntrantOutcome> entrants;
  std::optional<std::size_t> winner;  // the survivor with the lowest median
  int rounds = 0;
  double spent_s = 0;
  std::string stop;  // settled | one_left | budget | round_limit | all_failed | rounds
};

struct RaceSettings {
  double budget_s = 0;            // the whole race, every round of every entrant
  std::int64_t min_samples = 5;   // an entrant is judged (or judges) from this many samples on
  double target_ci = 0.02;        // survivors this precise, none dropped in a round: settled
  // Each round measures its entrants in an order shuffled from this seed (and
  // the round's number), so that a slow period of the machine falls on every
  // entrant alike rather than on whoever comes last; none: the given order.
  std::optional<std::uint64_t> order_seed;
  // false: nobody is dropped and nothing settles early, every entrant runs
  // every round (an interleaved sweep, docs/methodology.md#rounds).
  bool drop = true;
};

// Rounds an interleaved sweep runs at least before precision may end it:
// fewer would leave too few per-round ratios to pair.
inline constexpr int kMinInterleavedRounds = 3;

// The order round `round` measures `alive` in: a Fisher-Yates shuffle driven
// by mt19937_64 (whose output the standard fixes, unlike std::shuffle's
// use of it), so a recorded seed gives the same order with any library.
std::vector<std::size_t> round_order(std::vector<std::size_t> alive, std::uint64_t seed, int round);

// (entrant index, seconds of timed loop it may take this round) -> the round.
using MeasureRound = std::function<RoundResult(std::size_t, double)>;

// One race, a round at a time. open() runs round 0: every entrant, each
// granted slice_s of timed loop (0: its minimum), whatever that costs. run()
// goes on within budget_s more: a round starts only if the cheapest round
// each survivor has run so far, summed, fits in what is left, and grants each
// the share of the rest that remains after them, so run() overruns by about
// one iteration per entrant and round (more when a round's set-up takes
// longer than its cheapest did). It stops when one entrant is
// left, when the survivors are settled, at the budget, or after twice the
// planned rounds (2 + ceil(log2 n)).
class Race {
 public:
  Race(std::span<const RaceEntrant> entrants, const RaceSettings& settings);
  void open(const MeasureRound& measure, double slice_s);
  void run(const MeasureRound& measure, double budget_s);
  // Up to `count` more rounds of every entrant still in, each granted
  // slice_s of timed loop, whatever the budget (an interleaved sweep);
  // "settled" after kMinInterleavedRounds or more once every entrant's
  // pooled samples meet target_ci.
  // measured(i), where given, runs as soon as entrant i's round is taken in.
  void rounds(const MeasureRound& measure, int count, double slice_s,
              const std::function<void(std::size_t)>& measured = {});
  // The outcome so far (entrants' samples, rounds, fates), before finish().
  const RaceOutcome& so_far() const { return out_; }
  double spent() const { return out_.spent_s; }
  // The outcome, with the winner (the survivor with the lowest median).
  RaceOutcome finish();

 private:
  void round(const MeasureRound& measure, double slice_s, const std::function<void(std::size_t)>& measured = {});
  // Judged (min_samples or more) and its pooled median's interval within target_ci.
  bool precise(std::size_t i) const;
  std::vector<RaceEntrant> entrants_;
  RaceSettings settings_;
  RaceOutcome out_;
  std::vector<std::size_t> alive_;
  std::vector<double> cheapest_;  // each entrant's cheapest round: what its next round costs at least
  int planned_;
};

// A whole race within budget_s: round 0 takes its planned share of it.
RaceOutcome race(std::span<const RaceEntrant> entrants, const RaceSettings& settings, const MeasureRound& measure);

// Grid refinement: of n sizes in ascending order, the positions raced first
// (every other one, and the last); a position between two raced ones is raced
// only if their winners differ.
std::vector<std::size_t> coarse_positions(std::size_t n);

}  // namespace pico
