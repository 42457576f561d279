// SPDX-License-Identifier: BSD-3-Clause
#include "worker/race_runner.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "harness/harness.hpp"
#include "stats/stats.hpp"
#include "support/hash.hpp"

namespace pico {
namespace {

// Samples a round takes at least (whatever min_iterations says), and from
// how many pooled samples a candidate is judged. At 5 the order-statistic
// interval of the median is the samples' range: a candidate goes when all its
// samples are slower than all of the best's, which one fixed pair of
// candidates of one distribution does by chance once in C(10,5) = 252 at one
// look; against the best of a field, looked at every round, more often.
constexpr std::int64_t kRoundMinIterations = 5;
constexpr std::int64_t kJudgedFrom = 5;
// Warm-up calls of a round: a few on the first (the communicator is new),
// one on later ones.
constexpr int kFirstRoundWarmup = 2;
// Round 0's timed loop: time_budget divided by this.
constexpr double kScreenShare = 20;
// An interleaved sweep's later round warms up once where a call takes at
// most this share of the round's slice, else not at all.
constexpr double kWarmupShare = 0.1;

// What a case is, but for its algorithm and parameters (and, for an
// interleaved sweep, its backend: the library's default and pico's reference
// algorithms are candidates of one choice too): the cases with one key are
// the candidates of one choice. Without the size: one series.
std::string choice_key(const Case& c, bool with_size, bool with_backend = true) {
  Case k = c;
  if (!with_size) k.bytes = k.count = 0;
  return fmt::format("{}/{}", choice_id(k, with_backend), c.repetition);
}


struct Choice {
  std::vector<const Case*> candidates;
  std::optional<std::string> winner;  // once raced
  int entrants_raced = 0;
};

// The choices of one series, ascending in size.
using Series = std::vector<Choice>;

std::vector<Series> series_of(const std::vector<Case>& cases) {
  std::vector<Series> out;
  std::map<std::string, std::size_t> series_at;
  std::map<std::string, std::pair<std::size_t, std::size_t>> choice_at;
  for (const Case& c : cases) {
    const auto [s, new_series] = series_at.try_emplace(choice_key(c, false), out.size());
    if (new_series) out.emplace_back();
    const auto [ch, new_choice] = choice_at.try_emplace(choice_key(c, true), s->second, out[s->second].size());
    if (new_choice) out[s->second].emplace_back();
    out[ch->second.first][ch->second.second].candidates.push_back(&c);
  }
  for (Series& series : out)
    std::stable_sort(series.begin(), series.end(),
                     [](const Choice& a, const Choice& b) { return a.candidates[0]->bytes < b.candidates[0]->bytes; });
  return out;
}

// How each round is timed. A race grants each round a slice of its budget
// and judges from 5 samples on. An interleaved sweep splits the case's own
// timing: each of R rounds gets time_budget / R and its share of
// min_iterations and max_iterations (they add up to them, at least one a
// round), and stops early at target_ci x sqrt(R), since R rounds pooled
// narrow the interval about that much again, but only from 5 samples on
// (one sample's interval has no width): a round's median is of 5 or more
// samples wherever its slice affords them.
enum class RoundMode { race, interleaved };

// One choice's rounds and what they left: each candidate's round-0 record
// (or the one of the round it failed in), wall time and rounds.
class ChoiceRace {
 public:
  ChoiceRace(Choice& choice, const CaseContext& ctx, const RaceSink& sink, RoundMode mode = RoundMode::race)
      : choice_(choice), ctx_(ctx), sink_(sink), mode_(mode), seed_(order_seed_of(choice, ctx)),
        race_(entrants_of(choice), settings_of(ctx, mode, seed_)) {
    const std::size_t n = choice.candidates.size();
    record_.resize(n);
    validation_.resize(n);
    elapsed_.assign(n, 0.0);
    last_median_.assign(n, 0.0);
    rounds_.assign(n, 0);
  }

  // Round 0: a twentieth of time_budget per candidate (small messages get
  // tens of samples for little), at least its minimum; what it costs says
  // what the choice costs.
  void screen() {
    race_.open(measure(), ctx_.timing.time_budget_s / kScreenShare);
    screen_cost_ = race_.spent();
  }
  void run(double budget_s) {
    granted_ += budget_s;
    race_.run(measure(), budget_s);
  }
  // An interleaved sweep's rounds: every candidate in each. After each of
  // a candidate's rounds but its last, its record so far goes out (a case's
  // last record is its record), so that a crash or an interruption later in
  // the choice loses no round already measured.
  void interleave() {
    const int count = ctx_.timing.rounds;
    race_.rounds(measure(), count, ctx_.timing.time_budget_s / count, [this, count](std::size_t i) {
      const EntrantOutcome& e = race_.so_far().entrants[i];
      if (e.fate == RaceFate::survived && e.rounds < count) sink_.finished(interleaved_record(record_[i], i, e));
    });
  }
  double spent() const { return race_.spent(); }

  // Records every candidate; the choice learns its winner.
  void finish() {
    const RaceOutcome outcome = race_.finish();
    const std::size_t n = choice_.candidates.size();
    // Refinement trusts a winner only over others that were measured (not failed).
    choice_.entrants_raced = static_cast<int>(std::count_if(
        outcome.entrants.begin(), outcome.entrants.end(), [](const EntrantOutcome& e) { return !e.samples.empty(); }));
    if (outcome.winner) {
      const Case& winner = *choice_.candidates[*outcome.winner];
      choice_.winner = candidate_label(winner.algorithm, winner.params);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const EntrantOutcome& e = outcome.entrants[i];
      if (mode_ == RoundMode::interleaved) {
        sink_.finished(interleaved_record(std::move(record_[i]), i, e));
        continue;
      }
      CaseResult r = std::move(record_[i]);
      fill(r, i, e, "race");
      r.warmup = std::min(ctx_.timing.warmup, kFirstRoundWarmup);  // round 0's: later rounds warm up once
      r.race = RaceRecord{.fate = e.fate,
                          .reason = e.reason,
                          .rounds = e.rounds,
                          .race_rounds = outcome.rounds,
                          .entrants = static_cast<int>(n),
                          .winner = choice_.winner.value_or(""),
                          .stop = outcome.stop,
                          .budget_s = granted_ + screen_cost_,
                          .spent_s = outcome.spent_s};
      sink_.finished(r);
    }
  }

 private:
  // Candidate i's record from its rounds so far: timing pooled over them,
  // a failure any rank saw, round 0's validation, the rounds record.
  void fill(CaseResult& r, std::size_t i, const EntrantOutcome& e, const char* stop_reason) const {
    if (e.fate != RaceFate::failed && !e.samples.empty()) {
      const TimingStats stats = compute_stats(e.samples);
      r.timing = stats;
      r.iterations = stats.iterations;
      r.algbw_GBps = algbw_GBps(r.c, stats.median_s);
      r.busbw_GBps = busbw_GBps(r.c, stats.median_s);
      r.stop_reason = stop_reason;
      r.samples_s = e.samples;
    }
    // A failure another rank saw (the ranks agreed on it) is this record's too.
    if (e.fate == RaceFate::failed && r.status == CaseStatus::ok) r.fail(e.reason);
    // A round keeps its samples for the pooling (round_timing); the record only where asked.
    if (!ctx_.timing.keep_samples) {
      r.samples_s.reset();
      r.rank_samples.reset();
    }
    r.validation = validation_[i];
    r.elapsed_s = elapsed_[i];
    r.rounds = rounds_record(e);
  }
  CaseResult interleaved_record(CaseResult r, std::size_t i, const EntrantOutcome& e) const {
    fill(r, i, e, "rounds");
    r.warmup = ctx_.timing.warmup;  // round 0's: later rounds warm up once, or not at all
    return r;
  }

  static std::vector<RaceEntrant> entrants_of(const Choice& choice) {
    std::vector<RaceEntrant> out;
    for (const Case* c : choice.candidates)
      out.push_back({candidate_label(c->algorithm, c->params), c->algorithm == "default"});
    return out;
  }
  static RaceSettings settings_of(const CaseContext& ctx, RoundMode mode, std::uint64_t seed) {
    return {.budget_s = 0,
            .min_samples = kJudgedFrom,
            .target_ci = ctx.timing.target_ci,
            .order_seed = seed,
            .drop = mode == RoundMode::race};
  }
  // The choice's own seed, from the experiment's and what the choice is, so
  // that every choice (and repetition) gets orders of its own. 53 bits: a
  // JSON reader's double holds it exactly.
  static std::uint64_t order_seed_of(const Choice& choice, const CaseContext& ctx) {
    const std::string key = choice_key(*choice.candidates[0], true, false);
    const std::uint64_t h = fnv1a64(std::as_bytes(std::span(key.data(), key.size())));
    return (h ^ (ctx.timing.order_seed * 0x9E3779B97F4A7C15ULL)) & ((std::uint64_t{1} << 53) - 1);
  }

  RoundsRecord rounds_record(const EntrantOutcome& e) const {
    RoundsRecord rec;
    rec.seed = seed_;
    rec.order = e.positions;
    rec.median_s = round_medians(e);
    for (std::size_t n : e.round_sizes)
      if (n > 0) rec.samples.push_back(static_cast<std::int64_t>(n));
    return rec;
  }

  // The timing of candidate i's next round.
  TimingSpec round_timing(std::size_t i, double slice_s) const {
    TimingSpec t = ctx_.timing;
    t.keep_samples = true;
    t.time_budget_s = slice_s;
    if (mode_ == RoundMode::interleaved) {
      const std::int64_t r = ctx_.timing.rounds;
      // Round k's share of a count: the rounds add up to it exactly (7 in 5 rounds: 2 2 1 1 1), at least one each.
      const auto share = [&](std::int64_t total) {
        return std::max<std::int64_t>(1, total / r + (rounds_[i] < total % r ? 1 : 0));
      };
      t.min_iterations = share(ctx_.timing.min_iterations);
      t.max_iterations = std::max(t.min_iterations, share(ctx_.timing.max_iterations));
      t.target_ci = std::min(0.99, ctx_.timing.target_ci * std::sqrt(static_cast<double>(r)));
      t.precise_from = kJudgedFrom;  // a round's median from at least 5 samples where the slice affords them
      // Round 0 takes the first calls' costs (connections, the algorithm's
      // first use) out of the timed loop. A later round re-prepares only the
      // buffers: one warm-up call where a call is cheap beside the round's
      // slice, none where it is not (at 4 MiB on 1 Gbit/s a call outlasts
      // the slice, and a warm-up each round made the sweep 1.7x longer).
      const bool cheap = last_median_[i] <= kWarmupShare * slice_s;
      t.warmup = rounds_[i] == 0 ? ctx_.timing.warmup : cheap ? std::min(ctx_.timing.warmup, 1) : 0;
      return t;
    }
    t.min_iterations = kRoundMinIterations;
    t.max_iterations = std::max(ctx_.timing.max_iterations, kRoundMinIterations);
    t.warmup = std::min(ctx_.timing.warmup, rounds_[i] == 0 ? kFirstRoundWarmup : 1);
    return t;
  }

  MeasureRound measure() {
    return [this](std::size_t i, double slice_s) {
      const Case& c = *choice_.candidates[i];
      sink_.round_started(c, rounds_[i]);
      CaseContext round = ctx_;
      round.timing = round_timing(i, slice_s);
      // The results are checked, and phases recorded, once, in round 0; the record keeps them.
      round.validation = ctx_.validation && rounds_[i] == 0;
      round.instrumentation.phases = ctx_.instrumentation.phases && rounds_[i] == 0;
      // Per-rank timing too: the record keeps round 0's, so a later round's
      // gather and summary would be thrown away.
      round.timing.rank_timing = ctx_.timing.rank_timing && rounds_[i] == 0;
      ++rounds_[i];
      CaseResult r = run_case(c, round);
      if (ctx_.timing.rank_timing) r.rank_timing_off = false;  // the experiment's setting, not the round's
      if (rounds_[i] == 1) validation_[i] = r.validation;
      elapsed_[i] += r.elapsed_s;
      // Every rank must decide alike: the slowest rank's time, and a failure anywhere.
      double spent = r.elapsed_s;
      harness::allreduce(ctx_.harness, &spent, 1, harness::Reduction::max);
      int failed = r.status == CaseStatus::failed ? 1 : 0;
      harness::allreduce(ctx_.harness, &failed, 1, harness::Reduction::max);
      RoundResult out;
      out.spent_s = spent;
      if (failed != 0)
        out.failure = r.reason.empty() ? "failed on another rank" : r.reason;
      else
        out.samples = r.samples_s.value_or(std::vector<double>{});
      if (r.timing) last_median_[i] = r.timing->median_s;  // identical on every rank (max-reduced samples)
      // The record is round 0's (validation, phases, what ran), or the round that failed.
      if (rounds_[i] == 1 || r.status == CaseStatus::failed) record_[i] = std::move(r);
      return out;
    };
  }

  Choice& choice_;
  const CaseContext& ctx_;
  const RaceSink& sink_;
  RoundMode mode_;
  std::uint64_t seed_;
  Race race_;
  std::vector<CaseResult> record_;
  std::vector<Validation> validation_;  // round 0's
  std::vector<double> elapsed_;
  std::vector<double> last_median_;  // each candidate's last round's median
  std::vector<int> rounds_;
  double granted_ = 0;
  double screen_cost_ = 0;  // round 0's, which no budget limits
};

// Screens every race, then shares what `budget_left_s` holds after the
// screens among them in proportion to what each screen cost (a choice of many
// candidates or large messages needs more), keeping `reserve` (a fraction of
// it) for later races. Takes what they spent off budget_left_s.
void race_all(std::vector<std::unique_ptr<ChoiceRace>>& races, double& budget_left_s, double reserve) {
  std::vector<double> screen(races.size());
  double screens = 0;
  for (std::size_t k = 0; k < races.size(); ++k) {
    races[k]->screen();
    screen[k] = races[k]->spent();
    screens += screen[k];
  }
  budget_left_s -= screens;
  const double to_share = std::max(0.0, budget_left_s) * (1.0 - reserve);
  // Each race is recorded as it ends, so a crash later loses only the races still running.
  for (std::size_t k = 0; k < races.size(); ++k) {
    const double share = screens > 0 ? to_share * screen[k] / screens : 0.0;
    races[k]->run(share);
    budget_left_s -= races[k]->spent() - screen[k];
    races[k]->finish();
  }
}

// A choice refinement leaves out: every candidate recorded skipped.
void skip(const Choice& choice, const Choice& below, const Choice& above, const CaseContext& ctx,
          const RaceSink& sink) {
  const std::string why = fmt::format(
      "not measured (timing.race.refine): {} won at both neighbouring sizes, {} B and {} B", *below.winner,
      below.candidates[0]->bytes, above.candidates[0]->bytes);
  for (const Case* c : choice.candidates) sink.finished(unmeasured_result(*c, CaseStatus::skipped, why, ctx.launch, 0));
}

// Between two raced neighbours that agree (each a real race, of two or more
// candidates), a size is not measured.
bool settled_between(const Choice& below, const Choice& above) {
  return below.entrants_raced > 1 && above.entrants_raced > 1 && below.winner && above.winner &&
         *below.winner == *above.winner;
}

// The choices of a launch, each with its candidates, in the order their
// first case comes in the plan (which repetitions shuffle).
std::vector<Choice> choices_of(const std::vector<Case>& cases) {
  std::vector<Choice> out;
  std::map<std::string, std::size_t> at;
  for (const Case& c : cases) {
    const auto [it, added] = at.try_emplace(choice_key(c, true, false), out.size());
    if (added) out.emplace_back();
    out[it->second].candidates.push_back(&c);
  }
  return out;
}

}  // namespace

void run_interleaved(const std::vector<Case>& cases, const CaseContext& ctx, const RaceSink& sink) {
  auto in_one_go = [&](const Case& c) {
    sink.round_started(c, std::nullopt);
    sink.finished(run_case(c, ctx));
  };
  if (ctx.timing.rounds <= 1) {  // rounds: 1: each case to the end, in plan order
    for (const Case& c : cases) in_one_go(c);
    return;
  }
  for (Choice& choice : choices_of(cases)) {
    if (choice.candidates.size() == 1) {  // nothing to interleave with
      in_one_go(*choice.candidates[0]);
      continue;
    }
    ChoiceRace rounds(choice, ctx, sink, RoundMode::interleaved);
    rounds.interleave();
    rounds.finish();
  }
}

void run_races(const std::vector<Case>& cases, const CaseContext& ctx, const RaceSpec& spec, const RaceSink& sink) {
  std::vector<Series> all = series_of(cases);
  // The first pass: every size, or (refine) every other one and the last.
  std::vector<std::unique_ptr<ChoiceRace>> first;
  std::size_t between = 0;
  for (Series& series : all) {
    std::vector<bool> coarse(series.size(), !spec.refine);
    if (spec.refine)
      for (std::size_t at : coarse_positions(series.size())) coarse[at] = true;
    for (std::size_t at = 0; at < series.size(); ++at) {
      if (coarse[at])
        first.push_back(std::make_unique<ChoiceRace>(series[at], ctx, sink));
      else
        ++between;
    }
  }
  double budget_left = spec.budget_s;
  // The sizes between may each need a race: keep their part of the budget.
  const double reserve =
      between == 0 ? 0.0 : static_cast<double>(between) / static_cast<double>(first.size() + between);
  race_all(first, budget_left, reserve);

  // The sizes between (odd positions but the last) race where their neighbours disagree.
  std::vector<std::unique_ptr<ChoiceRace>> second;
  for (Series& series : all)
    for (std::size_t at = 1; spec.refine && at + 1 < series.size(); at += 2) {
      if (settled_between(series[at - 1], series[at + 1]))
        skip(series[at], series[at - 1], series[at + 1], ctx, sink);
      else
        second.push_back(std::make_unique<ChoiceRace>(series[at], ctx, sink));
    }
  race_all(second, budget_left, 0.0);
}

}  // namespace pico
