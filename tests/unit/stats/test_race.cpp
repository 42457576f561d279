// SPDX-License-Identifier: BSD-3-Clause
// Racing on synthetic candidates whose true medians are known: the race must
// never drop the candidate a full measurement would find fastest, never drop
// the default, and stay within its budget.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stats/race.hpp"
#include "stats/stats.hpp"

using pico::RaceEntrant;
using pico::RaceFate;
using pico::RaceOutcome;
using pico::RaceSettings;
using pico::RoundResult;

namespace {

// A candidate whose every call takes median_s times lognormal noise, with an
// occasional 3x outlier (a descheduled rank), as the shared machines give.
struct Synthetic {
  double median_s;
  double sigma = 0.05;
};

struct Bench {
  Bench(std::vector<Synthetic> c, std::uint64_t seed) : candidates(std::move(c)), rng(seed) {}
  std::vector<Synthetic> candidates;
  std::mt19937_64 rng;
  double overhead_s = 1e-3;  // set-up, warm-up and validation of one round
  std::int64_t round_min = 5, round_max = 2000;
  std::vector<double> speed;  // the machine's slowdown per round (shared by every candidate in it)
  std::vector<int> round_of;

  RoundResult measure(std::size_t i, double slice_s) {
    const int round = round_of[i]++;
    const double slowdown = speed.empty() ? 1.0 : speed[static_cast<std::size_t>(round) % speed.size()];
    const double typical = candidates[i].median_s * slowdown;
    std::lognormal_distribution<double> noise(0.0, candidates[i].sigma);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    RoundResult r;
    r.spent_s = overhead_s;
    const auto wanted = static_cast<std::int64_t>(std::ceil(slice_s / typical));
    const std::int64_t n = std::clamp(wanted, round_min, round_max);
    for (std::int64_t k = 0; k < n; ++k) {
      double t = typical * noise(rng);
      if (unit(rng) < 0.02) t *= 3;
      r.samples.push_back(t);
      r.spent_s += t;
    }
    return r;
  }
};

RaceOutcome run(Bench& bench, const std::vector<RaceEntrant>& entrants, double budget_s) {
  bench.round_of.assign(entrants.size(), 0);
  const RaceSettings settings{.budget_s = budget_s, .min_samples = 5, .target_ci = 0.02, .order_seed = 1, .drop = true};
  return pico::race(entrants, settings, [&](std::size_t i, double slice) { return bench.measure(i, slice); });
}

}  // namespace

TEST_CASE("racing never drops the fastest candidate or the default, and keeps to its budget", "[race]") {
  // Gaps to the fastest from near-ties to 5x, in shuffled order, the default anywhere among them.
  const std::vector<double> gaps{0.0, 0.01, 0.03, 0.1, 0.3, 1.0, 2.0, 5.0};
  int dropped_total = 0, settled = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Bench bench({}, seed);
    std::vector<double> order = gaps;
    std::shuffle(order.begin(), order.end(), bench.rng);
    const double base = std::uniform_real_distribution<double>(2e-6, 2e-4)(bench.rng);
    std::vector<RaceEntrant> entrants;
    std::size_t fastest = 0;
    const std::size_t default_at = seed % order.size();
    for (std::size_t i = 0; i < order.size(); ++i) {
      bench.candidates.push_back({base * (1 + order[i])});
      entrants.push_back({"candidate " + std::to_string(i), i == default_at});
      if (order[i] == 0.0) fastest = i;
    }
    // Every fourth race runs on a machine whose speed changes between rounds.
    if (seed % 4 == 0) bench.speed = {1.0, 2.5, 1.0, 1.7};
    const double budget = 2000 * base * static_cast<double>(order.size());
    const RaceOutcome out = run(bench, entrants, budget);
    INFO("seed " << seed << ", fastest " << fastest << ", default " << default_at << ", stop " << out.stop);

    CHECK(out.entrants[fastest].fate == RaceFate::survived);
    CHECK(out.entrants[default_at].fate == RaceFate::survived);
    CHECK(out.entrants[default_at].rounds == out.rounds);  // a survivor runs every round
    // Round 0 alone may overrun (every candidate is seen once); after it, the
    // budget holds up to one iteration per candidate and round.
    double round0 = 0;
    for (const auto& c : bench.candidates) round0 += bench.overhead_s + 5 * 3 * c.median_s * 2.5;
    CHECK(out.spent_s <= std::max(budget, round0) * 1.02);
    REQUIRE(out.winner.has_value());
    // The winner is a survivor, and no survivor is slower than it.
    CHECK(out.entrants[*out.winner].fate == RaceFate::survived);
    for (const auto& e : out.entrants) {
      if (e.fate == RaceFate::dropped) {
        ++dropped_total;
        CHECK(e.reason.find("lies above") != std::string::npos);
        CHECK(e.rounds <= out.entrants[default_at].rounds);
      }
      if (e.fate == RaceFate::survived)
        CHECK(pico::median_of(e.samples) >= pico::median_of(out.entrants[*out.winner].samples));
    }
    if (out.stop == "settled") ++settled;
  }
  // The race is doing its job: the 2x and 5x candidates go early in most races.
  CHECK(dropped_total > 200 * 3);
  CHECK(settled > 0);
}

TEST_CASE("a race whose budget is below one round measures everyone once, then stops", "[race]") {
  Bench bench({{1e-3}, {2e-3}, {1.1e-3}}, 7);
  const std::vector<RaceEntrant> entrants{{"default", true}, {"slow", false}, {"close", false}};
  const RaceOutcome out = run(bench, entrants, 1e-6);
  CHECK(out.rounds == 1);
  CHECK(out.stop == "budget");
  for (const auto& e : out.entrants) CHECK(e.rounds == 1);
  REQUIRE(out.winner.has_value());
}

TEST_CASE("the default is kept however slow, a failing candidate leaves the race", "[race]") {
  Bench bench({{5e-4}, {1e-5}, {1.2e-5}}, 3);
  const std::vector<RaceEntrant> entrants{{"default", true}, {"fast", false}, {"broken", false}};
  bench.round_of.assign(3, 0);
  const RaceSettings settings{.budget_s = 1.0, .min_samples = 5, .target_ci = 0.02, .order_seed = 1, .drop = true};
  const RaceOutcome out = pico::race(entrants, settings, [&](std::size_t i, double slice) {
    RoundResult r = bench.measure(i, slice);
    if (i == 2) r.failure = "prepare: rank 1: out of memory";
    return r;
  });
  CHECK(out.entrants[0].fate == RaceFate::survived);
  CHECK(out.entrants[0].rounds == out.rounds);
  CHECK(out.entrants[2].fate == RaceFate::failed);
  CHECK(out.entrants[2].rounds == 1);
  CHECK(out.entrants[2].reason == "failed in round 0: prepare: rank 1: out of memory");
  REQUIRE(out.winner == std::optional<std::size_t>{1});
}

TEST_CASE("one candidate races alone: one round", "[race]") {
  Bench bench({{1e-4}}, 1);
  const RaceOutcome out = run(bench, {{"default", true}}, 1.0);
  CHECK(out.rounds == 1);
  CHECK(out.stop == "one_left");
  CHECK(out.winner == std::optional<std::size_t>{0});
}

TEST_CASE("grid refinement races every other size and the last first", "[race]") {
  using V = std::vector<std::size_t>;
  CHECK(pico::coarse_positions(0) == V{});
  CHECK(pico::coarse_positions(1) == V{0});
  CHECK(pico::coarse_positions(2) == V{0, 1});
  CHECK(pico::coarse_positions(4) == V{0, 2, 3});
  CHECK(pico::coarse_positions(11) == V{0, 2, 4, 6, 8, 10});
}
