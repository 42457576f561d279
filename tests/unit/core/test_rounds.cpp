// SPDX-License-Identifier: BSD-3-Clause
// Interleaved rounds and the hierarchical bootstrap that judges them
// (docs/methodology.md#rounds), on synthetic machines whose speed drifts:
// a slow period of 2.5x over several rounds must not change the winner, a
// machine that slows through each round must not favour whoever runs first
// (that is what the shuffled order is for), and the variance between
// launches must widen an interval (that is what resampling launches is for).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/race.hpp"

using pico::EntrantOutcome;
using pico::Observation;
using pico::Race;
using pico::RaceEntrant;
using pico::RaceSettings;
using pico::RoundResult;

namespace {

// Candidates of known speed on a machine whose slowdown depends on the call:
// `slowdown(call, place)` for the call-th measurement overall, the place-th
// of its round.
struct Machine {
  std::vector<double> true_s;
  std::function<double(int call, int place)> slowdown = [](int, int) { return 1.0; };
  double noise = 0.02;
  int samples_per_round = 7;
  std::mt19937_64 rng{1};
  int calls = 0;

  RoundResult measure(std::size_t i) {
    const int place = calls % static_cast<int>(true_s.size());
    const double slow = slowdown(calls++, place);
    std::lognormal_distribution<double> jitter(0.0, noise);
    RoundResult r;
    for (int k = 0; k < samples_per_round; ++k) r.samples.push_back(true_s[i] * slow * jitter(rng));
    r.spent_s = std::accumulate(r.samples.begin(), r.samples.end(), 0.0);
    return r;
  }
};

// Every candidate in every round, each round's order shuffled from `seed`;
// target_ci 0: precision never ends the rounds early.
pico::RaceOutcome interleaved(Machine& m, int rounds, std::uint64_t seed, double target_ci = 0) {
  std::vector<RaceEntrant> entrants;
  for (std::size_t i = 0; i < m.true_s.size(); ++i) entrants.push_back({"candidate " + std::to_string(i), i == 0});
  RaceSettings settings;
  settings.order_seed = seed;
  settings.drop = false;
  settings.target_ci = target_ci;
  Race race(entrants, settings);
  race.rounds([&](std::size_t i, double) { return m.measure(i); }, rounds, 0.0);
  return race.finish();
}

std::vector<EntrantOutcome> interleave(Machine& m, int rounds, std::uint64_t seed) {
  return interleaved(m, rounds, seed).entrants;
}

Observation observed(const EntrantOutcome& e, int launch = 0) {
  Observation o;
  o.stats = pico::compute_stats(e.samples);
  o.launch = launch;
  o.report_id = "run";
  o.round_medians_s = pico::round_medians(e);
  return o;
}

std::size_t fastest(const std::vector<double>& times) {
  return static_cast<std::size_t>(std::min_element(times.begin(), times.end()) - times.begin());
}

}  // namespace

TEST_CASE("a round's order is a shuffle from the seed: the same seed gives the same orders", "[rounds]") {
  const std::vector<std::size_t> alive{0, 1, 2, 3, 4, 5};
  std::set<std::vector<std::size_t>> seen;
  for (int round = 0; round < 20; ++round) {
    std::vector<std::size_t> order = pico::round_order(alive, 42, round);
    CHECK(order == pico::round_order(alive, 42, round));
    std::vector<std::size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == alive);  // a permutation
    seen.insert(order);
  }
  CHECK(seen.size() >= 15);  // 720 orders: twenty rounds repeat few
  CHECK(pico::round_order(alive, 42, 0) != pico::round_order(alive, 43, 0));
  // The fixed standard generator, hand-driven: these orders hold with any C++ library.
  CHECK(pico::round_order({0, 1, 2, 3}, 1, 0) == pico::round_order({0, 1, 2, 3}, 1, 0));
}

TEST_CASE("an interleaved sweep runs every candidate every round and records where each ran", "[rounds]") {
  Machine m{.true_s = {1e-5, 2e-5, 3e-5}};
  const auto entrants = interleave(m, 6, 9);
  std::vector<int> first(3, 0);
  for (const EntrantOutcome& e : entrants) {
    CHECK(e.rounds == 6);
    CHECK(e.fate == pico::RaceFate::survived);  // nobody is dropped, however slow
    REQUIRE(e.round_sizes.size() == 6);
    CHECK(std::accumulate(e.round_sizes.begin(), e.round_sizes.end(), std::size_t{0}) == e.samples.size());
    CHECK(pico::round_medians(e).size() == 6);
  }
  for (int round = 0; round < 6; ++round) {
    std::set<int> places;
    for (std::size_t i = 0; i < 3; ++i) {
      places.insert(entrants[i].positions[static_cast<std::size_t>(round)]);
      first[i] += entrants[i].positions[static_cast<std::size_t>(round)] == 0;
    }
    CHECK(places == std::set<int>{0, 1, 2});
  }
  // The recorded places are the seed's orders.
  for (int round = 0; round < 6; ++round) {
    const auto order = pico::round_order({0, 1, 2}, 9, round);
    for (std::size_t at = 0; at < 3; ++at)
      CHECK(entrants[order[at]].positions[static_cast<std::size_t>(round)] == static_cast<int>(at));
  }
}

TEST_CASE("rounds stop after three once every candidate is as precise as the case asks", "[rounds]") {
  Machine quiet{.true_s = {1e-5, 2e-5}};
  quiet.noise = 0.001;
  const pico::RaceOutcome settled = interleaved(quiet, 5, 1, 0.02);
  CHECK(settled.stop == "settled");
  CHECK(settled.rounds == 3);
  for (const EntrantOutcome& e : settled.entrants) CHECK(e.rounds == 3);
  Machine noisy{.true_s = {1e-5, 2e-5}};
  noisy.noise = 0.5;
  const pico::RaceOutcome all = interleaved(noisy, 5, 1, 0.02);
  CHECK(all.stop == "rounds");
  CHECK(all.rounds == 5);
}

TEST_CASE("a slow period of 2.5x lasting several rounds does not change the winner", "[rounds]") {
  // Three candidates, 10 rounds; calls 7 to 19 (from inside round 2 to inside
  // round 6) run 2.5x slower: a third of the sweep in a slow period that
  // begins and ends mid-round.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Machine m{.true_s = {1.0e-5, 1.1e-5, 1.3e-5}};
    m.rng.seed(seed);
    m.slowdown = [](int call, int) { return call >= 7 && call < 20 ? 2.5 : 1.0; };
    const auto entrants = interleave(m, 10, seed);
    std::vector<std::vector<Observation>> obs;
    for (const EntrantOutcome& e : entrants) obs.push_back({observed(e)});
    const pico::CandidateBootstrap boot({&obs[0], &obs[1], &obs[2]}, pico::Objective::median);
    INFO("seed " << seed);
    REQUIRE(boot.paired());
    CHECK(fastest(boot.estimate()) == 0);
    CHECK(boot.estimate()[1] == Approx(1.1).epsilon(0.03));
    const auto p = pico::near_fastest_probabilities({&obs[0], &obs[1], &obs[2]}, 0.05, pico::Objective::median);
    REQUIRE(p.has_value());
    CHECK((*p)[0] >= 0.95);
    // Candidate 1 is 10% slower, slow period and all.
    const auto s = pico::bootstrap_speedup(obs[0], obs[1], pico::Objective::median);
    REQUIRE(s.has_value());
    CHECK(s->estimate == Approx(1 / 1.1).epsilon(0.03));
  }
}

TEST_CASE("shuffled orders spread every candidate over every place", "[rounds]") {
  // A fixed order would put candidate 0 first in every round, so whatever a
  // round's first place costs (a new communicator's first calls, a machine
  // that slows as the round goes on) would always fall on it.
  Machine m{.true_s = {1e-5, 1e-5, 1e-5, 1e-5}};
  const auto entrants = interleave(m, 400, 3);
  for (const EntrantOutcome& e : entrants) {
    std::vector<int> at_place(4, 0);
    for (int p : e.positions) ++at_place[static_cast<std::size_t>(p)];
    for (int n : at_place) CHECK(n >= 70);  // 100 expected at each place; 70 is 3.5 standard deviations below
  }
}

TEST_CASE("interleaving is what keeps a slow period from deciding: one candidate after the other, it does", "[rounds]") {
  // The same two candidates (the first 5% faster) and the same slow period
  // (calls 20 to 39 at 2.5x), measured one after the other: the slow period
  // falls on all of the second candidate's rounds, and the comparison is
  // lost; interleaved it falls on both alike.
  Machine sequential{.true_s = {1.0e-5, 1.05e-5}};
  sequential.slowdown = [](int call, int) { return call >= 20 && call < 40 ? 2.5 : 1.0; };
  std::vector<Observation> a, b;
  for (std::size_t i = 0; i < 2; ++i) {
    Machine one{.true_s = {sequential.true_s[i]}};
    one.slowdown = [i](int call, int) {
      const int at = static_cast<int>(i) * 20 + call;  // the second candidate's calls come after the first's
      return at >= 20 && at < 40 ? 2.5 : 1.0;
    };
    (i == 0 ? a : b).push_back(observed(interleave(one, 20, 1)[0]));
  }
  b[0].launch = 1;  // a launch of its own: nothing to pair
  CHECK(pico::objective_time(b, pico::Objective::median) > 2 * pico::objective_time(a, pico::Objective::median));
  Machine interleaved{.true_s = {1.0e-5, 1.05e-5}};
  interleaved.slowdown = [](int call, int) { return call >= 20 && call < 40 ? 2.5 : 1.0; };
  const auto entrants = interleave(interleaved, 20, 1);
  std::vector<Observation> ia{observed(entrants[0])}, ib{observed(entrants[1])};
  const pico::CandidateBootstrap boot({&ia, &ib}, pico::Objective::median);
  REQUIRE(boot.paired());
  CHECK(boot.estimate()[1] == Approx(1.05).epsilon(0.02));
}

TEST_CASE("the variance between launches widens the interval: launches are resampled before rounds", "[rounds]") {
  // Four launches of 10 rounds each, candidates paired round by round. In
  // three the candidate is 10% faster, in the fourth 30% slower: a launch
  // effect that rounds within one launch cannot show. Resampling launches
  // first lets a replicate draw that launch twice or more, which pulls the
  // interval's lower end below 1; resampling the 40 rounds as one pool never does.
  std::vector<Observation> base, cand;
  for (int launch = 0; launch < 4; ++launch) {
    Observation b, c;
    b.launch = c.launch = launch;
    b.report_id = c.report_id = "run";
    for (int r = 0; r < 10; ++r) {
      const double jitter = 1.0 + 0.001 * r;
      b.round_medians_s.push_back(1e-5 * jitter);
      c.round_medians_s.push_back((launch < 3 ? 1e-5 / 1.1 : 1.3e-5) * jitter);
    }
    b.stats = pico::compute_stats(b.round_medians_s);
    c.stats = pico::compute_stats(c.round_medians_s);
    base.push_back(b);
    cand.push_back(c);
  }
  const auto s = pico::bootstrap_speedup(base, cand, pico::Objective::median);
  REQUIRE(s.has_value());
  CHECK(s->method == "bootstrap of paired rounds over launches");
  CHECK(s->estimate > 1.0);
  CHECK(s->low < 1.0);  // one launch in four disagreeing: not a confident win
  CHECK(s->high >= 1.09);
  // The same rounds as one launch: the rounds alone look unanimous enough.
  std::vector<Observation> one_base{base[0]}, one_cand{cand[0]};
  for (int launch = 1; launch < 4; ++launch) {
    auto& b = one_base[0].round_medians_s;
    auto& c = one_cand[0].round_medians_s;
    b.insert(b.end(), base[launch].round_medians_s.begin(), base[launch].round_medians_s.end());
    c.insert(c.end(), cand[launch].round_medians_s.begin(), cand[launch].round_medians_s.end());
  }
  const auto pooled = pico::bootstrap_speedup(one_base, one_cand, pico::Objective::median);
  REQUIRE(pooled.has_value());
  CHECK(pooled->method == "bootstrap of paired rounds");
  CHECK(pooled->low > 1.0);
}

TEST_CASE("candidates measured in different launches are compared unpaired, each resampled on its own", "[rounds]") {
  Observation b, c;
  b.launch = 0;
  c.launch = 1;  // another launch: round k of one is not round k of the other
  b.report_id = c.report_id = "run";
  b.round_medians_s = {1.0e-5, 1.1e-5, 0.9e-5, 1.0e-5, 1.05e-5};
  c.round_medians_s = {2.0e-5, 2.1e-5, 1.9e-5, 2.0e-5, 2.05e-5};
  b.stats = pico::compute_stats(b.round_medians_s);
  c.stats = pico::compute_stats(c.round_medians_s);
  const std::vector<Observation> base{b}, cand{c};
  const pico::CandidateBootstrap boot({&base, &cand}, pico::Objective::median);
  CHECK_FALSE(boot.paired());
  CHECK(boot.method() == "bootstrap over rounds");
  const auto s = pico::bootstrap_speedup(base, cand, pico::Objective::median);
  REQUIRE(s.has_value());
  CHECK(s->estimate == Approx(0.5));
  CHECK(s->high < 0.6);
  // Nothing to resample: one launch value a side.
  std::vector<Observation> bare{b}, bare_cand{c};
  bare[0].round_medians_s.clear();
  bare_cand[0].round_medians_s.clear();
  std::string why;
  CHECK_FALSE(pico::bootstrap_speedup(bare, bare_cand, pico::Objective::median, &why).has_value());
  CHECK_THAT(why, Catch::Matchers::Contains("timing.rounds"));
}
