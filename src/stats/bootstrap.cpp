// SPDX-License-Identifier: BSD-3-Clause
#include "stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <utility>

namespace pico {

namespace {

double objective_percent(Objective o) { return o == Objective::median ? 50.0 : 95.0; }

// Percentile with linear interpolation between closest ranks (as
// percentile_sorted), by selection: the bootstrap cannot afford a sort.
double percentile_unsorted(std::vector<double>& v, double p) {
  const double pos = p / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return a + (b - a) * (pos - static_cast<double>(lo));
}

bool has_samples(const Observation& o) { return o.samples_s && !o.samples_s->empty(); }
bool has_rounds(const Observation& o) { return !o.round_medians_s.empty(); }

template <typename Pred>
bool all_of(const std::vector<Observation>& obs, Pred pred) {
  return !obs.empty() && std::all_of(obs.begin(), obs.end(), pred);
}

double launch_value(const Observation& o, Objective objective) {
  return objective == Objective::median ? o.stats.median_s : o.stats.p95_s;
}

// What a candidate's unpaired resampling draws within a launch.
enum class Level { samples, rounds, launches };
Level level_of(const std::vector<Observation>& obs, Objective objective) {
  if (all_of(obs, has_samples)) return Level::samples;
  if (objective == Objective::median && all_of(obs, has_rounds)) return Level::rounds;
  return Level::launches;
}

// Values a candidate's resampling draws from at level samples or rounds.
std::size_t values_at(const std::vector<Observation>& obs, Level level) {
  std::size_t n = 0;
  for (const Observation& o : obs) n += level == Level::samples ? o.samples_s->size() : o.round_medians_s.size();
  return n;
}

// One replicate of a candidate on its own (level samples or rounds): launches
// drawn with replacement, then each drawn launch's samples (or round medians)
// drawn with replacement, pooled.
double resampled(const std::vector<Observation>& obs, Objective objective, Level level, std::mt19937_64& rng,
                 std::vector<double>& pool) {
  pool.clear();
  std::uniform_int_distribution<std::size_t> pick_launch(0, obs.size() - 1);
  for (std::size_t l = 0; l < obs.size(); ++l) {
    const Observation& o = obs[pick_launch(rng)];
    const std::vector<double>& values = level == Level::samples ? *o.samples_s : o.round_medians_s;
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    for (std::size_t i = 0; i < values.size(); ++i) pool.push_back(values[pick(rng)]);
  }
  return percentile_unsorted(pool, level == Level::samples ? objective_percent(objective) : 50.0);
}

// Huber's M-estimate of the log ratios' location (k = 1.345, scale 1.4826
// MAD; a few reweighting steps from the median), written here as no library
// pico uses offers one. A round that a disturbance hit on one side only (a
// slow period beginning mid-round, a descheduled rank) counts at most k
// scales away however far out it lies, so a minority of them cannot move the
// ratio, while the rounds within the noise are averaged as a mean would.
double huber_location(std::vector<double>& x) {
  constexpr double kHuber = 1.345;
  const double median = percentile_unsorted(x, 50.0);
  std::vector<double> deviation(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) deviation[i] = std::abs(x[i] - median);
  const double scale = 1.4826 * percentile_unsorted(deviation, 50.0);
  if (!(scale > 0)) return median;
  double mu = median;
  for (int step = 0; step < 20; ++step) {
    double sum = 0, weights = 0;
    for (const double v : x) {
      const double d = std::abs(v - mu);
      const double w = d <= kHuber * scale ? 1.0 : kHuber * scale / d;
      sum += w * v;
      weights += w;
    }
    const double next = sum / weights;
    if (std::abs(next - mu) < 1e-9 * scale) return next;
    mu = next;
  }
  return mu;
}

using UnitKey = std::pair<std::string, int>;  // report, launch

}  // namespace

std::string_view name(Objective o) { return o == Objective::median ? "median" : "p95"; }

std::optional<Objective> parse_objective(std::string_view s) {
  if (s == "median") return Objective::median;
  if (s == "p95") return Objective::p95;
  return std::nullopt;
}

namespace {

// The statistic the unpaired bootstrap resamples, on all the data: the
// objective over every sample pooled where samples exist, else the median of
// every round's median, else the median over launches of each launch's value.
double pooled_statistic(const std::vector<Observation>& obs, Objective objective) {
  if (obs.empty()) return 0;
  std::vector<double> pool;
  const Level level = level_of(obs, objective);
  for (const Observation& o : obs) {
    if (level == Level::samples) pool.insert(pool.end(), o.samples_s->begin(), o.samples_s->end());
    else if (level == Level::rounds) pool.insert(pool.end(), o.round_medians_s.begin(), o.round_medians_s.end());
    else pool.push_back(launch_value(o, objective));
  }
  return percentile_unsorted(pool, level == Level::samples ? objective_percent(objective) : 50.0);
}

}  // namespace

double objective_time(const std::vector<Observation>& obs, Objective objective) {
  // One record: its own statistic, of all its samples (the worker's, what
  // every table prints), not the median of its rounds' medians (issue 65:
  // those put a 1.16x pair of medians at 3.3x).
  if (obs.size() == 1) return launch_value(obs[0], objective);
  return pooled_statistic(obs, objective);
}

CandidateBootstrap::CandidateBootstrap(std::vector<const std::vector<Observation>*> candidates, Objective objective)
    : candidates_(std::move(candidates)), objective_(objective) {
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
  for (const auto* obs : candidates_)
    for (const Observation& o : *obs)
      seed = seed * 1099511628211ULL + (has_samples(o) ? o.samples_s->size() : 0) * 31 + o.round_medians_s.size();
  seed_ = seed;
  if (candidates_.empty() || std::any_of(candidates_.begin(), candidates_.end(), [](const auto* c) { return c->empty(); })) {
    why_not_ = "no measurement";
    return;
  }
  // Paired: the median objective, and every candidate measured in rounds in the same launches, one record each.
  std::map<UnitKey, std::vector<const Observation*>> units;
  bool pairable = objective == Objective::median;
  for (std::size_t c = 0; pairable && c < candidates_.size(); ++c)
    for (const Observation& o : *candidates_[c]) {
      auto& slot = units[{o.report_id, o.launch}];
      if (!has_rounds(o) || slot.size() != c) pairable = false;  // missing rounds, or a second record in one launch
      slot.push_back(&o);
    }
  for (const auto& [key, obs] : units)
    if (obs.size() != candidates_.size()) pairable = false;
  std::size_t paired_rounds = 0;
  if (pairable) {
    for (const auto& [key, obs] : units) {
      std::size_t rounds = obs[0]->round_medians_s.size();
      for (const Observation* o : obs) rounds = std::min(rounds, o->round_medians_s.size());
      Unit u;
      for (const Observation* o : obs) {
        std::vector<double> ratio(rounds);
        for (std::size_t r = 0; r < rounds; ++r)
          ratio[r] = obs[0]->round_medians_s[r] > 0 && o->round_medians_s[r] > 0
                         ? o->round_medians_s[r] / obs[0]->round_medians_s[r]
                         : 1.0;
        u.ratios.push_back(std::move(ratio));
      }
      paired_rounds += rounds;
      units_.push_back(std::move(u));
    }
    paired_ = paired_rounds >= 2;
  }
  if (paired_) return;
  units_.clear();
  // Launch values alone (no samples, no rounds) are too few to resample
  // (speedup_of takes the envelope of their intervals instead).
  for (const auto* obs : candidates_) {
    const Level level = level_of(*obs, objective);
    if (level == Level::launches || values_at(*obs, level) < 2) {
      why_not_ = objective == Objective::p95
                     ? "a p95 interval needs samples_s (timing.keep_samples)"
                     : "nothing to resample: keep samples (timing.keep_samples) or measure in rounds (timing.rounds)";
      return;
    }
  }
  // Resampled round medians estimate the spread of the median of round
  // medians; scaled by the pooled objective over that statistic of all the
  // data, every replicate is about the objective the estimate is (the same
  // ratio everywhere: 1 where samples are resampled).
  for (const auto* obs : candidates_) {
    const double pooled = pooled_statistic(*obs, objective);
    scale_.push_back(pooled > 0 ? objective_time(*obs, objective) / pooled : 1.0);
  }
}

std::string CandidateBootstrap::method() const {
  if (!possible()) return "none: " + why_not_;
  if (paired_) return units_.size() > 1 ? "bootstrap of paired rounds over launches" : "bootstrap of paired rounds";
  bool launches = false;
  for (const auto* obs : candidates_) launches = launches || obs->size() > 1;
  const Level level = level_of(*candidates_[0], objective_);
  const char* within = level == Level::samples ? "samples" : "rounds";
  return std::string(launches ? "bootstrap over launches, then " : "bootstrap over ") + within;
}

double CandidateBootstrap::paired_time(std::size_t candidate, const std::vector<std::pair<std::size_t, std::size_t>>& drawn,
                                       std::vector<double>& scratch) const {
  scratch.clear();
  for (const auto& [u, r] : drawn) scratch.push_back(std::log(units_[u].ratios[candidate][r]));
  return std::exp(huber_location(scratch));
}

std::vector<double> CandidateBootstrap::estimate() const {
  std::vector<double> out(candidates_.size(), 0.0);
  if (candidates_.empty()) return out;
  if (paired_) {
    std::vector<std::pair<std::size_t, std::size_t>> all;
    for (std::size_t u = 0; u < units_.size(); ++u)
      for (std::size_t r = 0; r < units_[u].ratios[0].size(); ++r) all.emplace_back(u, r);
    std::vector<double> scratch;
    for (std::size_t c = 0; c < candidates_.size(); ++c) out[c] = paired_time(c, all, scratch);
    return out;
  }
  const double base = objective_time(*candidates_[0], objective_);
  for (std::size_t c = 0; c < candidates_.size(); ++c)
    out[c] = base > 0 ? objective_time(*candidates_[c], objective_) / base : 0.0;
  return out;
}

std::vector<std::vector<double>> CandidateBootstrap::replicates(int n) const {
  std::vector<std::vector<double>> out;
  if (!possible()) return out;
  std::mt19937_64 rng(seed_);
  std::vector<double> scratch;
  if (paired_) {
    std::uniform_int_distribution<std::size_t> pick_unit(0, units_.size() - 1);
    std::vector<std::pair<std::size_t, std::size_t>> drawn;
    for (int k = 0; k < n; ++k) {
      drawn.clear();
      for (std::size_t l = 0; l < units_.size(); ++l) {
        const std::size_t u = pick_unit(rng);
        const std::size_t rounds = units_[u].ratios[0].size();
        std::uniform_int_distribution<std::size_t> pick_round(0, rounds - 1);
        for (std::size_t r = 0; r < rounds; ++r) drawn.emplace_back(u, pick_round(rng));
      }
      std::vector<double> times(candidates_.size());
      for (std::size_t c = 0; c < candidates_.size(); ++c) times[c] = paired_time(c, drawn, scratch);
      out.push_back(std::move(times));
    }
    return out;
  }
  std::vector<Level> levels;
  for (const auto* obs : candidates_) levels.push_back(level_of(*obs, objective_));
  for (int k = 0; k < n; ++k) {
    std::vector<double> times(candidates_.size());
    for (std::size_t c = 0; c < candidates_.size(); ++c)
      times[c] = resampled(*candidates_[c], objective_, levels[c], rng, scratch) * scale_[c];
    const double base = times[0];
    for (double& t : times) t = base > 0 ? t / base : 0.0;
    out.push_back(std::move(times));
  }
  return out;
}

std::optional<RatioInterval> bootstrap_speedup(const std::vector<Observation>& baseline,
                                               const std::vector<Observation>& candidate, Objective objective,
                                               std::string* why_not) {
  const CandidateBootstrap boot({&baseline, &candidate}, objective);
  if (!boot.possible()) {
    if (why_not != nullptr) *why_not = boot.why_not();
    return std::nullopt;
  }
  RatioInterval s;
  const double relative = boot.estimate()[1];
  s.estimate = relative > 0 ? 1.0 / relative : 0.0;
  std::vector<double> speedups;
  for (const auto& rep : boot.replicates())
    if (rep[1] > 0) speedups.push_back(1.0 / rep[1]);
  std::sort(speedups.begin(), speedups.end());
  s.low = percentile_sorted(speedups, 2.5);
  s.high = percentile_sorted(speedups, 97.5);
  // The percentiles alone: speedup_of (core/speedup.hpp), the one definition
  // every view prints, widens them to hold the estimate.
  s.method = boot.method();
  return s;
}

std::optional<std::vector<double>> near_fastest_probabilities(
    const std::vector<const std::vector<Observation>*>& candidates, double tolerance, Objective objective) {
  const CandidateBootstrap boot(candidates, objective);
  const auto reps = boot.replicates();
  if (reps.empty()) return std::nullopt;
  std::vector<double> least(candidates.size(), 1.0);
  for (std::size_t c = 0; c < candidates.size(); ++c)
    for (std::size_t rival = 0; rival < candidates.size(); ++rival) {
      if (rival == c) continue;
      std::size_t near = 0;
      for (const auto& times : reps) near += times[c] <= (1.0 + tolerance) * times[rival];
      least[c] = std::min(least[c], static_cast<double>(near) / static_cast<double>(reps.size()));
    }
  return least;
}

}  // namespace pico
