// SPDX-License-Identifier: BSD-3-Clause
// The statistical test behind pico tune: the speedup's 95% interval from
// samples (hierarchical bootstrap) or from timing statistics (envelope of the
// launches' intervals), and where range boundaries fall.
#include <catch2/catch.hpp>

#include <random>

#include "core/speedup.hpp"
#include "tuning/tune.hpp"

using namespace pico;

namespace {

// A launch of n samples around `centre` with relative spread `spread`.
Observation launch_of(double centre, double spread, int n, unsigned seed, int launch = 0) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, spread * centre);
  std::vector<double> s;
  for (int i = 0; i < n; ++i) s.push_back(centre + noise(rng));
  Observation o;
  o.stats = compute_stats(s);
  o.samples_s = s;
  o.launch = launch;
  return o;
}

Observation stats_only(double median, double low, double high, double p95, int launch) {
  Observation o;
  o.stats.median_s = median;
  o.stats.ci95_low_s = low;
  o.stats.ci95_high_s = high;
  o.stats.p95_s = p95;
  o.launch = launch;
  return o;
}

}  // namespace

TEST_CASE("bootstrap: a clearly faster candidate has an interval above 1, the same one straddles 1") {
  const std::vector<Observation> base{launch_of(2e-6, 0.05, 200, 1)};
  const std::vector<Observation> fast{launch_of(1e-6, 0.05, 200, 2)};
  const std::vector<Observation> same{launch_of(2e-6, 0.05, 200, 3)};
  const MeasuredSpeedup f = speedup_of(base, fast, Objective::median);
  CHECK(f.estimate == Approx(2.0).epsilon(0.05));
  CHECK(f.low > 1.8);
  CHECK(f.high < 2.2);
  CHECK(f.method == "bootstrap over samples");
  const MeasuredSpeedup s = speedup_of(base, same, Objective::median);
  CHECK(s.low < 1.0);
  CHECK(s.high > 1.0);
  // Deterministic: the same data give the same interval.
  CHECK(speedup_of(base, fast, Objective::median).low == f.low);
}

TEST_CASE("bootstrap over launches: launch-to-launch variation widens the interval") {
  // Within each launch the candidate is tight, but its launches disagree by 30%.
  const std::vector<Observation> base{launch_of(1.0, 0.01, 100, 1, 0), launch_of(1.0, 0.01, 100, 2, 1),
                                      launch_of(1.0, 0.01, 100, 3, 2)};
  const std::vector<Observation> cand{launch_of(0.7, 0.01, 100, 4, 0), launch_of(0.95, 0.01, 100, 5, 1),
                                      launch_of(0.8, 0.01, 100, 6, 2)};
  const MeasuredSpeedup pooled = speedup_of(base, cand, Objective::median);
  const MeasuredSpeedup one = speedup_of({base[0]}, {cand[0]}, Objective::median);
  CHECK(pooled.method == "bootstrap over launches, then samples");
  CHECK(pooled.high - pooled.low > 3 * (one.high - one.low));
  CHECK(pooled.low < 1.1);  // not confident of a 10% gain, though one launch alone shows 1.4x
  CHECK(one.low > 1.35);
}

TEST_CASE("without samples: the envelope of the medians' intervals over launches") {
  const std::vector<Observation> base{stats_only(10, 9, 11, 12, 0), stats_only(12, 11, 13, 14, 1)};
  const std::vector<Observation> cand{stats_only(5, 4, 6, 7, 0), stats_only(6, 5, 7, 8, 1)};
  const MeasuredSpeedup s = speedup_of(base, cand, Objective::median);
  CHECK(s.estimate == Approx(11.0 / 5.5));
  CHECK(s.low == Approx(9.0 / 7.0));
  CHECK(s.high == Approx(13.0 / 4.0));
  const MeasuredSpeedup p = speedup_of(base, cand, Objective::p95);
  CHECK(p.low == Approx(12.0 / 8.0));
  CHECK(p.high == Approx(14.0 / 7.0));
}

TEST_CASE("p95 with neither samples nor repeated launches has no interval, so no confidence") {
  const MeasuredSpeedup s = speedup_of({stats_only(10, 9, 11, 20, 0)}, {stats_only(1, 0.9, 1.1, 2, 0)}, Objective::p95);
  CHECK(s.estimate == Approx(10.0));
  CHECK(s.low == 0);
  CHECK(s.method.starts_with("none"));
}

TEST_CASE("objective over pooled samples and the launch count") {
  Observation a = launch_of(1.0, 0.0, 10, 1, 0);
  Observation b = launch_of(3.0, 0.0, 10, 1, 1);
  b.report_id = "r2";
  CHECK(objective_time({a, b}, Objective::median) == Approx(2.0));
  CHECK(objective_time({a, b}, Objective::p95) == Approx(3.0));
  CHECK(launch_count({a, b}) == 2);
  CHECK(launch_count({a, a}) == 1);
}

TEST_CASE("range boundaries at the geometric midpoint, with lower < boundary <= upper") {
  CHECK(range_boundary(8, 16) == 12);
  CHECK(range_boundary(65536, 262144) == 131072);
  CHECK(range_boundary(8, 9) == 9);
  CHECK(range_boundary(0, 8) == 1);
}
