// SPDX-License-Identifier: BSD-3-Clause
// The hierarchical bootstrap every decision of pico's rests on
// (docs/tuning.md#the-statistical-test): the candidates of one size are
// resampled together, launches first, then the rounds (or samples) within
// each drawn launch, so that the variance between launches counts as well as
// the variance within them.
//
// Where every candidate was measured in the same launches in interleaved
// rounds (CaseResult::rounds), the comparison is paired: a drawn round is
// drawn for every candidate at once, and a candidate's time is a robust
// mean (Huber's M-estimate, on logarithms) over the drawn rounds of its round
// median over the first candidate's in that round. A slow period of the machine that lasts a round or longer then
// slows both sides of every ratio alike and cancels, instead of deciding
// which candidate looks faster. Elsewhere (different launches, runs or
// reports; the p95 objective) each candidate is resampled on its own and
// compared by its pooled objective.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/stats.hpp"

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
  std::vector<double> round_medians_s;  // interleaved rounds, in round order; empty when not measured in rounds
};

// The objective: of one record, its own (timing.median_s or p95_s, of all
// its samples); of several, the median or p95 of every sample pooled where
// samples exist, else (median) the median of every round's median, else the
// median over launches of each launch's value.
double objective_time(const std::vector<Observation>& obs, Objective objective);

// Bootstrap replicates drawn by CandidateBootstrap.
inline constexpr int kBootstrapReplicates = 1000;

class CandidateBootstrap {
 public:
  // candidates[0] is the reference every time is taken relative to (the
  // library default); each entry is one candidate's observations.
  CandidateBootstrap(std::vector<const std::vector<Observation>*> candidates, Objective objective);

  // Whether the data hold any variation to resample (samples, rounds, or two
  // launches a side); why not where they do not.
  bool possible() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }
  bool paired() const { return paired_; }
  // "paired rounds over launches", "launches and samples", ...
  std::string method() const;

  // Each candidate's time relative to candidates[0]'s (1 for it): from all
  // the data, and in each of `n` replicates (seeded from the data's shape,
  // so the same reports give the same answer).
  std::vector<double> estimate() const;
  std::vector<std::vector<double>> replicates(int n = kBootstrapReplicates) const;

 private:
  struct Unit {  // one launch of every candidate, paired round by round
    std::vector<std::vector<double>> ratios;  // [candidate][round]: round median over candidate 0's
  };
  double paired_time(std::size_t candidate, const std::vector<std::pair<std::size_t, std::size_t>>& drawn,
                     std::vector<double>& scratch) const;
  std::vector<const std::vector<Observation>*> candidates_;
  Objective objective_;
  bool paired_ = false;
  std::vector<Unit> units_;
  std::vector<double> scale_;  // unpaired: each candidate's pooled objective over its resampled statistic's value on all the data
  std::string why_not_;
  std::uint64_t seed_ = 0;
};

// objective(baseline) / objective(candidate), > 1 when the candidate is
// faster, with its 95% percentile interval (which may miss the estimate:
// views print core/speedup.hpp's speedup_of, which holds it); nullopt
// (why_not says) when the data allow no bootstrap.
struct RatioInterval {
  double estimate = 0, low = 0, high = 0;
  std::string method;
};
std::optional<RatioInterval> bootstrap_speedup(const std::vector<Observation>& baseline,
                                               const std::vector<Observation>& candidate, Objective objective,
                                               std::string* why_not = nullptr);

// Each candidate's probability of being within `tolerance` (0.05: 5%) of
// the fastest of `candidates`, rival by rival: the least, over the other
// candidates, of the share of replicates in which its time is at most
// (1 + tolerance) times that rival's. (Not against each replicate's fastest:
// among many near-equal candidates that least of noisy draws lies below all
// of them.) One bootstrap for all; nullopt where none is possible.
std::optional<std::vector<double>> near_fastest_probabilities(
    const std::vector<const std::vector<Observation>*>& candidates, double tolerance, Objective objective);

}  // namespace pico
