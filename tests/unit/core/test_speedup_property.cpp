// SPDX-License-Identifier: BSD-3-Clause
// The speedup's one definition (core/speedup.hpp), over many random sample
// sets of every shape pico records (samples kept or not, rounds or none, one
// launch or several, paired or not, median or p95): every interval holds its
// point estimate (issue 65: tune --check printed "1.59 [1.17,1.57]"), the
// verdict follows the interval, and one record a side is compared by the
// ratio of the medians its tables print.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/speedup.hpp"

using pico::MeasuredSpeedup;
using pico::Objective;
using pico::Observation;

namespace {

// One launch's record of a candidate around `centre`: lognormal noise, now
// and then a heavy tail, and (where measured in rounds) rounds of which one
// may be many times slower.
Observation random_record(std::mt19937_64& rng, double centre, int launch, int rounds, bool keep_samples,
                          const std::string& report) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::lognormal_distribution<double> noise(0, 0.02 + 0.6 * unit(rng));
  const int parts = rounds > 0 ? rounds : 1;
  std::vector<double> all;
  Observation o;
  o.launch = launch;
  o.report_id = report;
  for (int r = 0; r < parts; ++r) {
    const double slow = unit(rng) < 0.15 ? 2 + 20 * unit(rng) : 1.0;  // a round a disturbance hit
    std::vector<double> round;
    // Rounds of unequal length (a round stops at its own interval): the median of the rounds' medians
    // then differs from the median of all samples, which the tables print.
    const int per_round = 1 + static_cast<int>(unit(rng) * 30);
    for (int i = 0; i < per_round; ++i) round.push_back(centre * slow * noise(rng) * (unit(rng) < 0.05 ? 30 : 1));
    if (rounds > 0) o.round_medians_s.push_back(pico::compute_stats(round).median_s);
    all.insert(all.end(), round.begin(), round.end());
  }
  o.stats = pico::compute_stats(all);
  if (keep_samples) o.samples_s = all;
  return o;
}

}  // namespace

TEST_CASE("every speedup interval holds its point estimate, over random sample sets of every shape", "[speedup]") {
  std::mt19937_64 rng(65);
  std::uniform_real_distribution<double> unit(0, 1);
  int with_interval = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const int launches = 1 + static_cast<int>(unit(rng) * 3);
    const int rounds = unit(rng) < 0.3 ? 0 : 1 + static_cast<int>(unit(rng) * 6);
    // tune --check: the sweep's default measured in rounds, the tuned run's alone (a choice of one, no rounds).
    const int cand_rounds = unit(rng) < 0.3 ? 0 : rounds;
    const bool keep = unit(rng) < 0.4;
    const bool paired = unit(rng) < 0.5;  // the same rounds of the same launches: one report
    const Objective objective = unit(rng) < 0.8 ? Objective::median : Objective::p95;
    const double ratio = std::exp((unit(rng) - 0.5) * 1.5);
    std::vector<Observation> base, cand;
    for (int l = 0; l < launches; ++l) {
      base.push_back(random_record(rng, 1e-5, l, rounds, keep, paired ? "run" : "baseline"));
      cand.push_back(random_record(rng, 1e-5 / ratio, paired ? l : l + launches, cand_rounds, keep,
                                   paired ? "run" : "candidate"));
    }
    const MeasuredSpeedup s = pico::speedup_of(base, cand, objective);
    INFO("trial " << trial << ": " << launches << " launch(es), " << rounds << "/" << cand_rounds << " rounds, samples " << keep
                  << ", paired " << paired << ", " << pico::name(objective) << ": " << s.estimate << " ["
                  << s.low << ", " << s.high << "] " << s.method);
    REQUIRE(s.estimate > 0);
    if (s.has_interval()) {
      ++with_interval;
      CHECK(s.low <= s.estimate);
      CHECK(s.estimate <= s.high);
      CHECK(s.verdict() == (s.low > 1 ? "faster" : s.high < 1 ? "slower" : "undecided"));
    } else {
      CHECK(s.verdict() == "undecided");
    }
    // Unpaired, one record a side: the ratio of the two medians the tables print, nothing else.
    if (launches == 1 && !(paired && rounds > 0 && cand_rounds > 0 && objective == Objective::median)) {
      const double printed = objective == Objective::median ? base[0].stats.median_s / cand[0].stats.median_s
                                                            : base[0].stats.p95_s / cand[0].stats.p95_s;
      CHECK(s.estimate == Approx(printed).epsilon(1e-12));
    }
  }
  CHECK(with_interval > 1000);  // the property was tested, not skipped
}

TEST_CASE("a speedup below 0.1 keeps three significant digits, never an exponent", "[speedup]") {
  // Issue 65: tune --check printed "0.000x [0.000, 1.084]" for a speedup below 0.001.
  CHECK(pico::speedup_figure(1.15849) == "1.158");
  CHECK(pico::speedup_figure(0.1234) == "0.123");
  CHECK(pico::speedup_figure(0.000512345) == "0.000512");
  CHECK(pico::speedup_figure(0.0451) == "0.0451");
  CHECK(pico::speedup_figure(0) == "0.000");
  MeasuredSpeedup s;
  s.estimate = 0.00042;
  s.low = 0.00031;
  s.high = 1.0844;
  CHECK(pico::speedup_estimate_text(s) == "0.000420x");
  CHECK(pico::speedup_interval_text(s) == "[0.000310, 1.084]");
}
