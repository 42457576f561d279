// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "stats/stats.hpp"

using pico::compute_stats;
using pico::median_ci95_sorted;
using pico::percentile_sorted;

namespace {

std::vector<double> one_to(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

}  // namespace

TEST_CASE("percentile_sorted interpolates linearly like numpy", "[stats]") {
  const auto v = one_to(100);
  CHECK(percentile_sorted(v, 0) == 1.0);
  CHECK(percentile_sorted(v, 100) == 100.0);
  CHECK(percentile_sorted(v, 50) == Approx(50.5).epsilon(1e-12));
  CHECK(percentile_sorted(v, 25) == Approx(25.75).epsilon(1e-12));
  CHECK(percentile_sorted(v, 5) == Approx(5.95).epsilon(1e-12));
  CHECK(percentile_sorted(v, 95) == Approx(95.05).epsilon(1e-12));
  CHECK(percentile_sorted(v, 99) == Approx(99.01).epsilon(1e-12));
}

TEST_CASE("percentile_sorted edge cases", "[stats]") {
  CHECK(percentile_sorted({}, 50) == 0.0);
  const std::vector<double> one{7.0};
  CHECK(percentile_sorted(one, 0) == 7.0);
  CHECK(percentile_sorted(one, 99) == 7.0);
  const std::vector<double> two{1.0, 3.0};
  CHECK(percentile_sorted(two, 50) == 2.0);
  CHECK(percentile_sorted(two, 100) == 3.0);
}

TEST_CASE("median of odd and even sample counts", "[stats]") {
  const std::vector<double> odd{3.0, 1.0, 2.0};
  CHECK(compute_stats(odd).median_s == 2.0);
  const std::vector<double> even{4.0, 1.0, 3.0, 2.0};
  CHECK(compute_stats(even).median_s == 2.5);
}

TEST_CASE("median CI uses order statistics n/2 -+ 1.96 sqrt(n)/2", "[stats]") {
  struct Expected {
    std::vector<double> sorted;
    double median, low, high;
  };
  // n = 10: ranks 1 and 9; n = 100: ranks 40 and 60; small n is clamped to the sample; empty gives zeros.
  const std::vector<Expected> table = {{one_to(10), 5.5, 2.0, 10.0},
                                       {one_to(100), 50.5, 41.0, 61.0},
                                       {{4.0}, 4.0, 4.0, 4.0},
                                       {{1.0, 2.0}, 1.5, 1.0, 2.0},
                                       {{}, 0.0, 0.0, 0.0}};
  for (const auto& e : table) {
    INFO("n = " << e.sorted.size());
    const auto ci = median_ci95_sorted(e.sorted);
    CHECK(ci.median == e.median);
    CHECK(ci.low == e.low);
    CHECK(ci.high == e.high);
  }
}

TEST_CASE("relative_ci_halfwidth takes the wider side", "[stats]") {
  CHECK(pico::relative_ci_halfwidth({10.0, 8.0, 11.0}) == Approx(0.2).epsilon(1e-12));
  CHECK(pico::relative_ci_halfwidth({10.0, 9.5, 13.0}) == Approx(0.3).epsilon(1e-12));
  CHECK(pico::relative_ci_halfwidth({5.0, 5.0, 5.0}) == 0.0);
  CHECK(pico::relative_ci_halfwidth({0.0, 0.0, 0.0}) == 0.0);
  CHECK(std::isinf(pico::relative_ci_halfwidth({0.0, 0.0, 1.0})));
}

TEST_CASE("compute_stats of a known set", "[stats]") {
  // Shuffled on purpose: compute_stats sorts a copy.
  const std::vector<double> v{5.0, 2.0, 9.0, 4.0, 4.0, 7.0, 4.0, 5.0};
  const auto s = compute_stats(v);
  const double stddev = std::sqrt(32.0 / 7.0);  // squared deviations from 5 sum to 32
  CHECK(s.iterations == 8);
  CHECK(s.min_s == 2.0);
  CHECK(s.max_s == 9.0);
  CHECK(s.mean_s == 5.0);
  CHECK(s.median_s == 4.5);
  CHECK(s.stddev_s == Approx(stddev).epsilon(1e-12));
  CHECK(s.cv == Approx(stddev / 5.0).epsilon(1e-12));
  CHECK(s.p5_s == Approx(2.7).epsilon(1e-12));    // pos 0.35 between 2 and 4
  CHECK(s.p95_s == Approx(8.3).epsilon(1e-12));   // pos 6.65 between 7 and 9
  CHECK(s.p99_s == Approx(8.86).epsilon(1e-12));  // pos 6.93
  // n = 8: indices floor(4 - 2.77) = 1 and ceil(4 + 2.77) = 7.
  CHECK(s.ci95_low_s == 4.0);
  CHECK(s.ci95_high_s == 9.0);
}

TEST_CASE("compute_stats of empty and single-sample input", "[stats]") {
  SECTION("empty") {
    const auto s = compute_stats({});
    CHECK(s.iterations == 0);
    CHECK(s.min_s == 0.0);
    CHECK(s.median_s == 0.0);
    CHECK(s.mean_s == 0.0);
    CHECK(s.max_s == 0.0);
    CHECK(s.stddev_s == 0.0);
    CHECK(s.cv == 0.0);
    CHECK(s.ci95_low_s == 0.0);
    CHECK(s.ci95_high_s == 0.0);
  }
  SECTION("single sample") {
    const std::vector<double> v{5e-6};
    const auto s = compute_stats(v);
    CHECK(s.iterations == 1);
    for (double x : {s.min_s, s.median_s, s.mean_s, s.max_s, s.p5_s, s.p95_s, s.p99_s, s.ci95_low_s, s.ci95_high_s})
      CHECK(x == 5e-6);
    CHECK(s.stddev_s == 0.0);
    CHECK(s.cv == 0.0);
  }
  SECTION("all zeros give cv 0, not NaN") {
    const std::vector<double> v{0.0, 0.0, 0.0};
    CHECK(compute_stats(v).cv == 0.0);
  }
}

TEST_CASE("stats_to_json has exactly the eleven timing keys", "[stats]") {
  const std::vector<double> v{1.0, 2.0, 3.0};
  const auto j = pico::stats_to_json(compute_stats(v));
  std::set<std::string> keys;
  for (const auto& [key, value] : j.items()) {
    keys.insert(key);
    CHECK(value.is_number_float());
  }
  const std::set<std::string> expected{"min_s",    "median_s", "mean_s", "max_s",      "p5_s",       "p95_s",
                                       "p99_s",    "stddev_s", "cv",     "ci95_low_s", "ci95_high_s"};
  CHECK(keys == expected);
  CHECK(j.at("median_s").get<double>() == 2.0);
  CHECK(j.at("stddev_s").get<double>() == 1.0);
  CHECK(j.at("cv").get<double>() == 0.5);
}

TEST_CASE("median_of: the middle value, the mean of the middle two, 0 for none", "[stats]") {
  CHECK(pico::median_of({}) == 0.0);
  CHECK(pico::median_of({3.0}) == 3.0);
  CHECK(pico::median_of({5.0, 1.0, 3.0}) == 3.0);
  CHECK(pico::median_of({4.0, 1.0, 3.0, 2.0}) == 2.5);
}
