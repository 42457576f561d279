// SPDX-License-Identifier: BSD-3-Clause
#include "stats/race.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "stats/stats.hpp"

namespace pico {
namespace {

MedianCi interval_of(const std::vector<double>& samples) {
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return median_ci95_sorted(sorted);
}

std::string us(double seconds) { return fmt::format("{:.4g} us", seconds * 1e6); }

// SplitMix64's finaliser: one well-mixed word from the seed and the round.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Rounds a race of n entrants is planned in: one to see everyone, about
// log2(n) to thin the field (successive halving), one for the last two.
int planned_rounds(std::size_t n) {
  return 2 + static_cast<int>(std::ceil(std::log2(static_cast<double>(std::max<std::size_t>(n, 1)))));
}

}  // namespace

std::vector<std::size_t> round_order(std::vector<std::size_t> alive, std::uint64_t seed, int round) {
  std::mt19937_64 rng(mix(seed ^ mix(static_cast<std::uint64_t>(round))));
  for (std::size_t i = alive.size(); i > 1; --i) {
    // Modulo's bias is below n / 2^64: immaterial for a few dozen entrants.
    const auto j = static_cast<std::size_t>(rng() % i);
    std::swap(alive[i - 1], alive[j]);
  }
  return alive;
}

std::vector<double> round_medians(const EntrantOutcome& e) {
  std::vector<double> out;
  std::size_t at = 0;
  for (std::size_t n : e.round_sizes) {
    if (n == 0) continue;
    std::vector<double> round(e.samples.begin() + static_cast<std::ptrdiff_t>(at),
                              e.samples.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
    std::sort(round.begin(), round.end());
    out.push_back(percentile_sorted(round, 50.0));
  }
  return out;
}

std::string_view name(RaceFate f) {
  switch (f) {
    case RaceFate::survived: return "survived";
    case RaceFate::dropped: return "dropped";
    case RaceFate::failed: return "failed";
  }
  return "";
}

std::optional<RaceFate> parse_race_fate(std::string_view s) {
  for (RaceFate f : {RaceFate::survived, RaceFate::dropped, RaceFate::failed})
    if (name(f) == s) return f;
  return std::nullopt;
}

Race::Race(std::span<const RaceEntrant> entrants, const RaceSettings& settings)
    : entrants_(entrants.begin(), entrants.end()),
      settings_(settings),
      cheapest_(entrants.size(), std::numeric_limits<double>::infinity()),
      planned_(planned_rounds(entrants.size())) {
  out_.entrants.resize(entrants.size());
  for (std::size_t i = 0; i < entrants.size(); ++i) alive_.push_back(i);
}

void Race::open(const MeasureRound& measure, double slice_s) {
  if (out_.rounds == 0 && !alive_.empty()) round(measure, slice_s);
}

void Race::run(const MeasureRound& measure, double budget_s) {
  const double until = out_.spent_s + budget_s;
  while (!alive_.empty() && out_.stop.empty()) {
    const double left = until - out_.spent_s;
    if (alive_.size() == 1) {
      out_.stop = "one_left";
      break;
    }
    // Past twice the plan, rounds only re-measure candidates that already
    // overlap (each round's own loop stops at target_ci, and pooling rounds
    // taken at different moments widens an interval rather than narrowing it).
    if (out_.rounds >= 2 * planned_) {
      out_.stop = "round_limit";
      break;
    }
    // An entrant's round costs at most its cheapest round so far plus the
    // timed loop it is granted (and one iteration's overshoot): the cheapest
    // rounds must fit, and the slices come out of the share of what is left.
    double fixed = 0;
    for (std::size_t i : alive_) fixed += cheapest_[i];
    if (fixed > left) {
      out_.stop = "budget";
      break;
    }
    const double share = left / std::max(1, planned_ - out_.rounds);
    round(measure, std::max(0.0, share - fixed) / static_cast<double>(alive_.size()));
  }
  if (alive_.empty() && out_.stop.empty()) out_.stop = "all_failed";
}

void Race::rounds(const MeasureRound& measure, int count, double slice_s,
                  const std::function<void(std::size_t)>& measured) {
  for (int k = 0; k < count && !alive_.empty(); ++k) {
    round(measure, slice_s, measured);
    // Every entrant already as precise as the case asks, pooled over three
    // rounds or more: the rest would add set-ups, not decisions.
    const bool all_precise = std::all_of(alive_.begin(), alive_.end(), [&](std::size_t i) { return precise(i); });
    if (out_.rounds >= kMinInterleavedRounds && all_precise && k + 1 < count) {
      out_.stop = "settled";
      return;
    }
  }
  if (out_.stop.empty()) out_.stop = alive_.empty() ? "all_failed" : "rounds";
}

bool Race::precise(std::size_t i) const {
  const EntrantOutcome& e = out_.entrants[i];
  return static_cast<std::int64_t>(e.samples.size()) >= settings_.min_samples &&
         relative_ci_halfwidth(interval_of(e.samples)) <= settings_.target_ci;
}

void Race::round(const MeasureRound& measure, double slice_s, const std::function<void(std::size_t)>& measured) {
  const int round = out_.rounds;
  const std::vector<std::size_t> order =
      settings_.order_seed ? round_order(alive_, *settings_.order_seed, round) : alive_;
  for (std::size_t at = 0; at < order.size(); ++at) {
    const std::size_t i = order[at];
    RoundResult r = measure(i, slice_s);
    EntrantOutcome& e = out_.entrants[i];
    out_.spent_s += r.spent_s;
    cheapest_[i] = std::min(cheapest_[i], r.spent_s);
    ++e.rounds;
    e.positions.push_back(static_cast<int>(at));
    if (!r.failure.empty()) {
      e.fate = RaceFate::failed;
      e.reason = fmt::format("failed in round {}: {}", round, r.failure);
      e.round_sizes.push_back(0);
      continue;
    }
    e.round_sizes.push_back(r.samples.size());
    e.samples.insert(e.samples.end(), r.samples.begin(), r.samples.end());
    if (measured) measured(i);
  }
  out_.rounds = round + 1;
  std::erase_if(alive_, [&](std::size_t i) { return out_.entrants[i].fate == RaceFate::failed; });
  if (!settings_.drop) return;

  // The best judged entrant; every other judged one whose interval lies above its interval goes.
  auto judged = [&](std::size_t i) {
    return static_cast<std::int64_t>(out_.entrants[i].samples.size()) >= settings_.min_samples;
  };
  std::optional<std::size_t> best;
  std::vector<MedianCi> ci(entrants_.size());
  for (std::size_t i : alive_) {
    if (!judged(i)) continue;
    ci[i] = interval_of(out_.entrants[i].samples);
    if (!best || ci[i].median < ci[*best].median) best = i;
  }
  bool dropped = false;
  if (best) {
    for (std::size_t i : alive_) {
      if (i == *best || entrants_[i].keep || !judged(i) || ci[i].low <= ci[*best].high) continue;
      EntrantOutcome& e = out_.entrants[i];
      e.fate = RaceFate::dropped;
      e.reason = fmt::format("dropped after round {}: median {} (95% CI {} to {}) lies above {}'s {} to {}", round,
                             us(ci[i].median), us(ci[i].low), us(ci[i].high), entrants_[*best].label,
                             us(ci[*best].low), us(ci[*best].high));
      dropped = true;
    }
    std::erase_if(alive_, [&](std::size_t i) { return out_.entrants[i].fate == RaceFate::dropped; });
  }
  // Everyone left is precise and nobody could be told apart this round: more
  // rounds would only narrow intervals that already overlap.
  const bool settled = std::all_of(alive_.begin(), alive_.end(), [&](std::size_t i) { return precise(i); });
  if (!dropped && settled && alive_.size() > 1) out_.stop = "settled";
}

RaceOutcome Race::finish() {
  if (out_.stop.empty()) out_.stop = alive_.empty() ? "all_failed" : alive_.size() == 1 ? "one_left" : "budget";
  out_.winner.reset();
  double fastest = 0;
  for (std::size_t i = 0; i < entrants_.size(); ++i) {
    const EntrantOutcome& e = out_.entrants[i];
    if (e.fate != RaceFate::survived || e.samples.empty()) continue;
    const double median = interval_of(e.samples).median;
    if (!out_.winner || median < fastest) {
      out_.winner = i;
      fastest = median;
    }
  }
  return out_;
}

RaceOutcome race(std::span<const RaceEntrant> entrants, const RaceSettings& settings, const MeasureRound& measure) {
  Race r(entrants, settings);
  // Round 0 takes its planned share of the budget; the rest goes to the later rounds.
  r.open(measure, settings.budget_s / planned_rounds(entrants.size()) / static_cast<double>(std::max<std::size_t>(1, entrants.size())));
  r.run(measure, settings.budget_s - r.spent());
  return r.finish();
}

std::vector<std::size_t> coarse_positions(std::size_t n) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < n; i += 2) out.push_back(i);
  if (n > 0 && out.back() != n - 1) out.push_back(n - 1);
  return out;
}

}  // namespace pico
