// SPDX-License-Identifier: BSD-3-Clause
// Per-rank timing's maths: the clock offset estimate against a known skew,
// the summary that names stragglers, its JSON and the compact samples.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/case_result.hpp"
#include "core/clock_offset.hpp"
#include "core/rank_samples.hpp"
#include "core/rank_timing.hpp"
#include "support/base64.hpp"

using namespace pico;

namespace {

// A rank whose clock reads `skew_s` ahead of rank 0's, pinging it over a link
// of `latency_s` one way plus exponential jitter (a queue now and then).
std::vector<PingPong> ping_pong(double skew_s, double latency_s, std::mt19937& rng, int rounds = kClockSyncRounds) {
  std::exponential_distribution<double> jitter(1 / (5 * latency_s));
  std::vector<PingPong> out;
  double t = 100;  // rank 0's clock
  for (int k = 0; k < rounds; ++k) {
    const double there = latency_s + jitter(rng), back = latency_s + jitter(rng);
    out.push_back({.sent_s = t + skew_s, .reference_s = t + there, .received_s = t + there + back + skew_s});
    t += 1e-3;
  }
  return out;
}

// ranks x samples of a collective that takes call_s: every rank enters
// within jitter_s of the start and leaves together, bar the rank a test delays.
struct Run {
  int ranks = 4;
  std::int64_t samples = 200;
  double call_s = 20e-6;
  double jitter_s = 1e-6;
};

RankTimes uniform(const Run& run, std::mt19937& rng) {
  std::uniform_real_distribution<double> jitter(0, run.jitter_s);
  RankTimes t;
  t.ranks = run.ranks;
  t.samples = run.samples;
  const auto n = static_cast<std::size_t>(run.ranks * run.samples);
  t.arrival_s.resize(n);
  t.exit_s.resize(n);
  for (std::int64_t i = 0; i < run.samples; ++i) {
    const double start = static_cast<double>(i) * 1e-3;
    double last_in = 0;
    for (int r = 0; r < run.ranks; ++r) {
      t.arrival_s[static_cast<std::size_t>(r * run.samples + i)] = start + jitter(rng);
      last_in = std::max(last_in, t.arrival(r, i));
    }
    for (int r = 0; r < run.ranks; ++r)
      t.exit_s[static_cast<std::size_t>(r * run.samples + i)] = last_in + run.call_s + jitter(rng);
  }
  return t;
}

// Rank `late` enters delay_s after the others in the given share of samples; all wait for it.
void delay_arrival(RankTimes& t, int late, double delay_s, double share) {
  for (std::int64_t i = 0; i < t.samples; ++i) {
    if (static_cast<double>(i % 100) >= share * 100) continue;
    t.arrival_s[static_cast<std::size_t>(late * t.samples + i)] += delay_s;
    for (int r = 0; r < t.ranks; ++r) t.exit_s[static_cast<std::size_t>(r * t.samples + i)] += delay_s;
  }
}

// Rank `slow` leaves delay_s after the others, having entered with them.
void delay_exit(RankTimes& t, int slow, double delay_s) {
  for (std::int64_t i = 0; i < t.samples; ++i) t.exit_s[static_cast<std::size_t>(slow * t.samples + i)] += delay_s;
}

const RankTimingBasis kBasis{
    .clock_residual_s = 0.5e-6, .barrier_stagger_s = 1e-6, .judges_late_arrival = true, .judges_slow_progress = true};

}  // namespace

TEST_CASE("clock offset: the shortest round's midpoint recovers a known skew within its residual", "[rank_timing]") {
  std::mt19937 rng(7);
  for (const double skew : {0.0, 5.8e-3, -123.456, 1e5}) {
    for (const double latency : {0.3e-6, 2e-6, 50e-6}) {
      const ClockOffset o = estimate_offset(ping_pong(skew, latency, rng));
      CAPTURE(skew, latency, o.offset_s, o.residual_s);
      CHECK(o.residual_s >= latency);                // half a round trip is at least the one-way latency
      CHECK(std::abs(o.offset_s - skew) <= o.residual_s + 1e-9);  // doubles near 1e5 s carry ~1e-11 s
    }
  }
}

TEST_CASE("clock offset: an asymmetric round biases by half the asymmetry, which the residual bounds", "[rank_timing]") {
  // 1 us there, 3 us back: the midpoint is 1 us off; the residual (2 us) covers it.
  const std::vector<PingPong> rounds{{.sent_s = 10.0, .reference_s = 10.0 + 1e-6 - 0.25, .received_s = 10.0 + 4e-6}};
  const ClockOffset o = estimate_offset(rounds);
  CHECK(o.offset_s == Approx(0.25 + 1e-6).margin(1e-12));
  CHECK(o.residual_s == Approx(2e-6).margin(1e-12));
  CHECK_THROWS(estimate_offset(std::vector<PingPong>{}));
}

TEST_CASE("wilson share: the interval's known values", "[rank_timing]") {
  const Share none = wilson_share(0, 10), all = wilson_share(10, 10), half = wilson_share(50, 100);
  CHECK(none.low == 0);
  CHECK(none.high == Approx(0.2775).margin(1e-4));
  CHECK(all.low == Approx(0.7225).margin(1e-4));
  CHECK(all.high == Approx(1.0));
  CHECK(half.low == Approx(0.4038).margin(1e-4));
  CHECK(half.high == Approx(0.5962).margin(1e-4));
  CHECK(wilson_share(0, 0).value() == 0);
}

TEST_CASE("rank timing: a uniform run names nobody, over many seeds", "[rank_timing]") {
  for (unsigned seed = 1; seed <= 50; ++seed) {
    std::mt19937 rng(seed);
    Run run;
    run.ranks = 2 + static_cast<int>(seed % 7);
    run.jitter_s = 0.2e-6 * seed;  // up to half the call
    const RankTimingSummary s = summarize_rank_times(uniform(run, rng), {}, kBasis);
    CAPTURE(seed, run.ranks);
    CHECK(s.stragglers.empty());
    CHECK(s.imbalance >= 1);
    CHECK(s.imbalance < 2);
  }
}

TEST_CASE("rank timing: a rank that enters late is named for late arrival, not slow progress", "[rank_timing]") {
  std::mt19937 rng(3);
  RankTimes t = uniform(Run{}, rng);
  delay_arrival(t, 2, 200e-6, 0.9);
  const std::vector<std::string> hosts{"n0", "n0", "n1", "n1"};
  const RankTimingSummary s = summarize_rank_times(t, hosts, kBasis);
  REQUIRE(s.stragglers.size() == 1);
  const Straggler& st = s.stragglers.front();
  CHECK(st.rank == 2);
  CHECK(st.host == "n1");
  CHECK(st.kind == kLateArrival);
  CHECK(st.share.calls == 180);
  CHECK(st.share.low > 0.85);
  CHECK(st.excess_s == Approx(200e-6).margin(2e-6));
  CHECK(s.late_arrival_calls[2] == 180);
  CHECK(s.slow_progress_calls[2] == 0);
  // It spent least time in the call: the others waited for it.
  CHECK(s.slowest_calls[2] < s.samples / 10);
}

TEST_CASE("rank timing: a rank that leaves late after entering on time is named for slow progress", "[rank_timing]") {
  std::mt19937 rng(4);
  RankTimes t = uniform(Run{}, rng);
  delay_exit(t, 3, 100e-6);
  const RankTimingSummary s = summarize_rank_times(t, {}, kBasis);
  REQUIRE(s.stragglers.size() == 1);
  CHECK(s.stragglers.front().rank == 3);
  CHECK(s.stragglers.front().kind == kSlowProgress);
  CHECK(s.stragglers.front().host.empty());
  CHECK(s.slowest_rank == 3);
  CHECK(s.slowest_rank_share.calls == s.samples);
  CHECK(s.imbalance == Approx(121.0 / 21.0).epsilon(0.05));  // (call + delay) / call, jitter aside
  // Where the collective's order makes ranks leave apart, slow progress is not judged.
  RankTimingBasis rooted = kBasis;
  rooted.judges_slow_progress = false;
  CHECK(summarize_rank_times(t, {}, rooted).stragglers.empty());
}

TEST_CASE("rank timing: a rank that waited long and wakes up late is not named", "[rank_timing]") {
  std::mt19937 rng(12);
  // Rank 3 enters 10 ms late; rank 0, having waited, leaves 3 ms after the others.
  RankTimes late = uniform(Run{}, rng);
  delay_arrival(late, 3, 10e-3, 1.0);
  for (std::int64_t i = 0; i < late.samples; ++i) late.exit_s[static_cast<std::size_t>(i)] += 3e-3;
  const RankTimingSummary a = summarize_rank_times(late, {}, kBasis);
  REQUIRE(a.stragglers.size() == 1);
  CHECK(a.stragglers.front().rank == 3);
  CHECK(a.slow_progress_calls[0] == 0);
  // Rank 2 leaves 10 ms late; rank 1, having waited for it in the barrier, enters the next sample 3 ms late.
  RankTimes slow = uniform(Run{}, rng);
  delay_exit(slow, 2, 10e-3);
  for (std::int64_t i = 1; i < slow.samples; ++i) {  // and the others wait for it in the call
    slow.arrival_s[static_cast<std::size_t>(slow.samples + i)] += 3e-3;
    for (int r = 0; r < slow.ranks; ++r) slow.exit_s[static_cast<std::size_t>(r * slow.samples + i)] += 3e-3;
  }
  const RankTimingSummary b = summarize_rank_times(slow, {}, kBasis);
  REQUIRE(b.stragglers.size() == 1);
  CHECK(b.stragglers.front().rank == 2);
  CHECK(b.stragglers.front().kind == kSlowProgress);
  CHECK(b.late_arrival_calls[1] == 0);
}

TEST_CASE("rank timing: a delay in a minority of calls, or below the threshold, names nobody", "[rank_timing]") {
  std::mt19937 rng(5);
  RankTimes rare = uniform(Run{}, rng);
  delay_arrival(rare, 1, 200e-6, 0.3);
  CHECK(summarize_rank_times(rare, {}, kBasis).stragglers.empty());
  RankTimes small = uniform(Run{}, rng);
  delay_arrival(small, 1, 3e-6, 1.0);  // under four barrier staggers (4 us)
  CHECK(summarize_rank_times(small, {}, kBasis).stragglers.empty());
}

TEST_CASE("rank timing: clocks skewed by known offsets, corrected by the estimate, keep arrivals within the residual",
          "[rank_timing]") {
  std::mt19937 rng(11);
  const Run run;
  const RankTimes truth = uniform(run, rng);
  RankTimes t = truth;
  const std::vector<double> skews{0, 5.8e-3, -2.5, 3e4};
  double worst_residual = 0;
  for (int r = 0; r < run.ranks; ++r) {
    // What the rank read on its own clock, then corrected by its estimated offset.
    const ClockOffset o = r == 0 ? ClockOffset{} : estimate_offset(ping_pong(skews[static_cast<std::size_t>(r)], 1e-6, rng));
    worst_residual = std::max(worst_residual, o.residual_s);
    for (std::int64_t i = 0; i < run.samples; ++i) {
      const auto k = static_cast<std::size_t>(r * run.samples + i);
      t.arrival_s[k] = (truth.arrival_s[k] + skews[static_cast<std::size_t>(r)]) - o.offset_s;
      t.exit_s[k] = (truth.exit_s[k] + skews[static_cast<std::size_t>(r)]) - o.offset_s;
      CHECK(std::abs(t.arrival_s[k] - truth.arrival_s[k]) <= o.residual_s + 1e-9);
    }
  }
  RankTimingBasis basis = kBasis;
  basis.clock_residual_s = worst_residual;
  CHECK(summarize_rank_times(t, {}, basis).stragglers.empty());
  delay_arrival(t, 1, 300e-6, 1.0);
  const RankTimingSummary s = summarize_rank_times(t, {}, basis);
  REQUIRE(s.stragglers.size() == 1);
  CHECK(s.stragglers.front().rank == 1);
}

TEST_CASE("rank timing: the summary's JSON reads back, and refuses an unknown kind", "[rank_timing]") {
  std::mt19937 rng(6);
  RankTimes t = uniform(Run{}, rng);
  delay_arrival(t, 0, 200e-6, 1.0);
  const RankTimingSummary s = summarize_rank_times(t, std::vector<std::string>{"a", "a", "b", "b"}, kBasis);
  const nlohmann::json j = to_json(s);
  const RankTimingSummary back = rank_timing_from_json(j);
  CHECK(to_json(back) == j);
  CHECK(back.slowest_host == s.slowest_host);
  REQUIRE(back.stragglers.size() == 1);
  CHECK(back.stragglers.front().host == "a");
  nlohmann::json bad = j;
  bad["stragglers"][0]["kind"] = "slow";
  CHECK_THROWS_WITH(rank_timing_from_json(bad), Catch::Contains("unknown straggler kind"));
  CHECK_THROWS(rank_timing_from_json(nlohmann::json::array()));
}

TEST_CASE("rank samples: the compact form reads back within float32 of each sample's start", "[rank_timing]") {
  std::mt19937 rng(8);
  Run run;
  run.ranks = 3;
  run.samples = 17;
  const RankTimes t = uniform(run, rng);
  const nlohmann::json j = compact_rank_samples(t);
  CHECK(j.at("encoding") == kRankSamplesEncoding);
  const RankTimes back = rank_samples_from_json(j);
  REQUIRE(back.ranks == 3);
  REQUIRE(back.samples == 17);
  for (std::int64_t i = 0; i < t.samples; ++i) {
    double start = 1e300, back_start = 1e300;
    for (int r = 0; r < t.ranks; ++r) {
      start = std::min(start, t.arrival(r, i));
      back_start = std::min(back_start, back.arrival(r, i));
    }
    CHECK(back_start == 0);
    for (int r = 0; r < t.ranks; ++r) {
      CHECK(back.arrival(r, i) == Approx(t.arrival(r, i) - start).margin(1e-9));
      CHECK(back.exit(r, i) == Approx(t.exit(r, i) - start).margin(1e-9));
    }
  }
  nlohmann::json short_by_one = j;
  short_by_one["samples"] = 18;
  CHECK_THROWS_WITH(rank_samples_from_json(short_by_one), Catch::Contains("ranks x samples"));
}

TEST_CASE("base64: round trips every length, and refuses what is not base64", "[rank_timing]") {
  std::vector<std::byte> bytes;
  for (int n = 0; n < 40; ++n) {
    const std::string text = base64_encode(bytes);
    CHECK(text.size() % 4 == 0);
    CHECK(base64_decode(text) == bytes);
    bytes.push_back(static_cast<std::byte>(n * 37 + 11));
  }
  CHECK(base64_encode(std::as_bytes(std::span<const char>("Man", 3))) == "TWFu");
  CHECK(base64_encode(std::as_bytes(std::span<const char>("Ma", 2))) == "TWE=");
  CHECK_THROWS(base64_decode("TWF"));
  CHECK_THROWS(base64_decode("TW!u"));
  CHECK_THROWS(base64_decode("T=Fu"));
}

TEST_CASE("rank timing: a case record carries it, an older one reads without, a malformed one is refused",
          "[rank_timing]") {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  const nlohmann::json old = nlohmann::json::parse(in)["cases"][0];
  REQUIRE_FALSE(old.contains("rank_timing"));
  CHECK_FALSE(case_result_from_json(old).rank_timing.has_value());  // a report from before per-rank timing
  std::mt19937 rng(9);
  nlohmann::json with = old;
  with["rank_timing"] = to_json(summarize_rank_times(uniform(Run{}, rng), {}, kBasis));
  const CaseResult r = case_result_from_json(with);
  REQUIRE(r.rank_timing.has_value());
  CHECK(to_json(r)["rank_timing"] == with["rank_timing"]);
  with["rank_timing"].erase("per_rank");
  CHECK_THROWS_WITH(case_result_from_json(with), Catch::Contains("rank_timing"));
}
