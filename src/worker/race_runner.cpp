// SPDX-License-Identifier: BSD-3-Clause
#include "worker/race_runner.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "core/stats.hpp"
#include "harness/harness.hpp"

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

// What a case is, but for its algorithm and parameters: the cases with one
// key are the candidates of one choice. Without the size: one series.
std::string choice_key(const Case& c, bool with_size) {
  Case k = c;
  k.algorithm.clear();
  k.params.clear();
  k.selection = {};
  k.case_id.clear();
  k.index = 0;
  if (!with_size) k.bytes = k.count = 0;
  return fmt::format("{}/{}", compute_case_id(k), c.repetition);
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

// One choice's race and what its rounds left: each candidate's last record,
// wall time and rounds.
class ChoiceRace {
 public:
  ChoiceRace(Choice& choice, const CaseContext& ctx, const RaceSink& sink)
      : choice_(choice), ctx_(ctx), sink_(sink), race_(entrants_of(choice), settings_of(ctx)) {
    const std::size_t n = choice.candidates.size();
    last_.resize(n);
    validation_.resize(n);
    elapsed_.assign(n, 0.0);
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
      CaseResult r = std::move(last_[i]);
      const EntrantOutcome& e = outcome.entrants[i];
      if (e.fate != RaceFate::failed && !e.samples.empty()) {
        const TimingStats stats = compute_stats(e.samples);
        r.timing = stats;
        r.iterations = stats.iterations;
        r.algbw_GBps = algbw_GBps(r.c, stats.median_s);
        r.busbw_GBps = busbw_GBps(r.c, stats.median_s);
        r.stop_reason = "race";
        r.samples_s = e.samples;
      }
      // A failure another rank saw (the ranks agreed on it) is this record's too.
      if (e.fate == RaceFate::failed && r.status == CaseStatus::ok) r.fail(e.reason);
      if (!ctx_.timing.keep_samples) r.samples_s.reset();
      r.warmup = std::min(ctx_.timing.warmup, kFirstRoundWarmup);  // round 0's: later rounds warm up once
      r.validation = validation_[i];
      r.elapsed_s = elapsed_[i];
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
  static std::vector<RaceEntrant> entrants_of(const Choice& choice) {
    std::vector<RaceEntrant> out;
    for (const Case* c : choice.candidates)
      out.push_back({candidate_label(c->algorithm, c->params), c->algorithm == "default"});
    return out;
  }
  static RaceSettings settings_of(const CaseContext& ctx) {
    return {.budget_s = 0, .min_samples = kJudgedFrom, .target_ci = ctx.timing.target_ci};
  }

  MeasureRound measure() {
    return [this](std::size_t i, double slice_s) {
      const Case& c = *choice_.candidates[i];
      sink_.round_started(c, rounds_[i]);
      CaseContext round = ctx_;
      round.timing.time_budget_s = slice_s;
      round.timing.keep_samples = true;
      round.timing.min_iterations = kRoundMinIterations;
      round.timing.max_iterations = std::max(ctx_.timing.max_iterations, kRoundMinIterations);
      round.timing.warmup = std::min(ctx_.timing.warmup, rounds_[i] == 0 ? kFirstRoundWarmup : 1);
      // The results are checked once, in round 0; that check stays in the record.
      round.validation = ctx_.validation && rounds_[i] == 0;
      ++rounds_[i];
      CaseResult r = run_case(c, round);
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
      last_[i] = std::move(r);
      return out;
    };
  }

  Choice& choice_;
  const CaseContext& ctx_;
  const RaceSink& sink_;
  Race race_;
  std::vector<CaseResult> last_;
  std::vector<Validation> validation_;  // round 0's
  std::vector<double> elapsed_;
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

}  // namespace

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
