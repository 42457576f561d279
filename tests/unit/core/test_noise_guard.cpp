// SPDX-License-Identifier: BSD-3-Clause
// The noise guard (core/noise_guard.hpp): each reason on its own, each bound
// at its edge, and a report's conditions (oversubscription, the recorded load)
// reaching the cases of the launches they hold for.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/host_load.hpp"
#include "core/noise_guard.hpp"

using namespace pico;
using nlohmann::json;

namespace {

// A case's figures: median 1 s (ratios exact at the edges), its interval +-half_width, its p95 `tail` times the median.
TimingStats stats(double half_width, double tail) {
  TimingStats t;
  t.median_s = 1;
  t.ci95_low_s = 1 - half_width;
  t.ci95_high_s = 1 + half_width;
  t.p95_s = tail;
  return t;
}

CaseResult measured(int launch, double half_width = 0.01, double tail = 1.5) {
  CaseResult r;
  r.c.case_id = "c";
  r.launch = launch;
  r.timing = stats(half_width, tail);
  return r;
}

json host(const std::string& name, int ranks, int cores) {
  json r = json::array();
  for (int i = 0; i < ranks; ++i) r.push_back(i);
  return {{"name", name}, {"ranks", r}, {"topology", {{"cores", cores}}}};
}

json report_with(const json& launches, const json& host_load, double target_ci = 0.02) {
  json report = {{"experiment", {{"parsed", {{"timing", {{"target_ci", target_ci}}}}}}},
                 {"provenance", {{"launches", launches}}},
                 {"run", json::object()}};
  if (!host_load.is_null()) report["run"]["host_load"] = host_load;
  return report;
}

}  // namespace

TEST_CASE("noise guard: a quiet case's figures raise no doubt") {
  const MeasurementDoubt d = doubt_of(stats(0.01, 1.5), 0.02, "");
  CHECK_FALSE(d.any());
  CHECK(d.reasons().empty());
  CHECK(d.text().empty());
}

TEST_CASE("noise guard: the interval, at twice the target and just past it") {
  // Just inside twice the 2% target (3.9%), and just past it (4.1%): binary fractions round the edge itself.
  CHECK_FALSE(doubt_of(stats(0.039, 1.5), 0.02, "").any());
  const MeasurementDoubt d = doubt_of(stats(0.041, 1.5), 0.02, "");
  REQUIRE(d.any());
  CHECK(d.interval == Approx(0.041));
  CHECK(d.tail == 0);
  CHECK(d.load.empty());
  CHECK_THAT(d.text(), Catch::Matchers::Contains("95% interval of the median +-4.1%") &&
                           Catch::Matchers::Contains("2 x target_ci 2%"));
  // The bound follows the experiment's target: 4.1% is within twice a 5% target.
  CHECK_FALSE(doubt_of(stats(0.041, 1.5), 0.05, "").any());
  // An interval lopsided above the median counts by its wider side.
  TimingStats lopsided = stats(0.01, 1.5);
  lopsided.ci95_high_s = 1.05;
  CHECK(doubt_of(lopsided, 0.02, "").interval == Approx(0.05));
  // No interval recorded (an older report's zeros): not a reason.
  TimingStats unrecorded = stats(0, 1.5);
  unrecorded.ci95_low_s = unrecorded.ci95_high_s = 0;
  CHECK_FALSE(doubt_of(unrecorded, 0.02, "").any());
}

TEST_CASE("noise guard: the tail, at four times the median and just past it") {
  CHECK_FALSE(doubt_of(stats(0.01, kTailOverMedian), 0.02, "").any());
  const MeasurementDoubt d = doubt_of(stats(0.01, kTailOverMedian * 1.001), 0.02, "");
  REQUIRE(d.any());
  CHECK(d.interval == 0);
  CHECK(d.tail == Approx(4.004));
  CHECK_THAT(d.text(), Catch::Matchers::Contains("p95 4.0x the median (over 4x)"));
  // The run: p95 of 16 ms against a median of microseconds.
  CHECK(doubt_of(stats(0.01, 16000), 0.02, "").tail == Approx(16000));
}

TEST_CASE("noise guard: load beside the ranks, at the cores plus the slack and past it") {
  CHECK_FALSE(load_above_cores(0.5, 2, 2));  // 2.5 = 2 cores + 0.5: the host's own daemons
  CHECK(load_above_cores(0.51, 2, 2));
  CHECK_FALSE(load_above_cores(0, 2, 2));
  CHECK(load_above_cores(0, 3, 2));  // more ranks than cores, nothing beside
  CHECK_FALSE(load_above_cores(5, 2, 0));  // cores unknown: no judgement
  const MeasurementDoubt d = doubt_of(stats(0.01, 1.5), 0.02, "a load of 2.0 beside 2 rank(s)");
  REQUIRE(d.any());
  CHECK(d.reasons() == std::vector<std::string>{"load: a load of 2.0 beside 2 rank(s)"});
}

TEST_CASE("noise guard: an unmeasured case is not doubted, a merge keeps the worst of each") {
  CHECK_FALSE(doubt_of(TimingStats{}, 0.02, "").any());
  MeasurementDoubt a = doubt_of(stats(0.05, 1.5), 0.02, "");
  a.merge(doubt_of(stats(0.09, 6), 0.02, ""));
  a.merge(doubt_of(stats(0.06, 9), 0.02, "busy"));
  CHECK(a.interval == Approx(0.09));
  CHECK(a.tail == Approx(9));
  CHECK(a.load == "busy");
  CHECK(a.reasons().size() == 3);
}

TEST_CASE("noise guard: the recorded load reaches the launches on its host") {
  // The front end's host "h", 2 cores, a load of 2 before the run: 2 ranks beside it wait.
  const json launches = json::array({{{"launch", 0}, {"hosts", json::array({host("h", 2, 2)})}},
                                     {{"launch", 1}, {"hosts", json::array({host("other", 2, 2)})}}});
  const json busy = {{"host", "h"}, {"cores", 2}, {"before", 2.0}, {"after", 4.0}, {"wall_s", 8.0}};
  const NoiseContext context(report_with(launches, busy));
  const MeasurementDoubt on_h = context.doubt_of(measured(0));
  CHECK_THAT(on_h.load, Catch::Matchers::Contains("a load of 2.0 beside 2 rank(s) on host h with 2 cores"));
  CHECK_FALSE(context.doubt_of(measured(1)).any());  // another host: the front end's load says nothing of it
  // Quiet before: nothing, though the ranks themselves raised the average.
  const json quiet = {{"host", "h"}, {"cores", 2}, {"before", 0.3}, {"after", 2.1}, {"wall_s", 8.0}};
  CHECK_FALSE(NoiseContext(report_with(launches, quiet)).doubt_of(measured(0)).any());
  // A report of an older pico, without host_load: only the figures count.
  CHECK_FALSE(NoiseContext(report_with(launches, nullptr)).doubt_of(measured(0)).any());
  // The target_ci the experiment recorded is the one held to.
  CHECK(NoiseContext(report_with(launches, nullptr, 0.05)).target_ci() == 0.05);
  CHECK_FALSE(NoiseContext(report_with(launches, nullptr, 0.05)).doubt_of(measured(0, 0.09)).any());
  CHECK(NoiseContext(report_with(launches, nullptr, 0.02)).doubt_of(measured(0, 0.09)).any());
}

TEST_CASE("noise guard: an oversubscribed launch's cases are in doubt") {
  const json launches = json::array({{{"launch", 0}, {"hosts", json::array({host("h", 4, 2)})}},
                                     {{"launch", 1}, {"hosts", json::array({host("h", 2, 2)})}}});
  const NoiseContext context(report_with(launches, nullptr));
  CHECK(context.doubt_of(measured(0)).load == "4 ranks on host h with 2 cores");
  CHECK_FALSE(context.doubt_of(measured(1)).any());
}

TEST_CASE("noise guard: the load beside a run of a minute or more is read from the average's rise") {
  HostLoad load{"h", 2, 0.1, 4.0, 120.0};
  // after = before d + (beside + 2)(1 - d), d = exp(-2): beside = (4 - 0.1 d) / (1 - d) - 2
  const double d = std::exp(-2.0);
  CHECK(load.beside(2) == Approx((4 - 0.1 * d) / (1 - d) - 2));
  load.wall_s = 30;  // shorter: the rise says too little, the load before stands
  CHECK(load.beside(2) == Approx(0.1));
  load.after = 0.5;  // below the ranks: never a negative load
  load.wall_s = 600;
  CHECK(load.beside(2) == Approx(0.1));
  CHECK(host_load_from_json(to_json(HostLoad{"h", 2, 0.25, std::nullopt, 3})) ->before == 0.25);
  CHECK_FALSE(host_load_from_json(json{{"host", "h"}, {"cores", 0}, {"before", 1}}).has_value());
  CHECK_FALSE(host_load_from_json(json::array()).has_value());
}

TEST_CASE("noise guard: the legend counts the marked sizes per reason and says how to measure better") {
  CHECK(noise_legend({MeasurementDoubt{}, MeasurementDoubt{}}, 2).empty());
  const std::string legend =
      noise_legend({doubt_of(stats(0.05, 1.5), 0.02, ""), doubt_of(stats(0.01, 30), 0.02, "x"), MeasurementDoubt{}}, 3);
  CHECK_THAT(legend, Catch::Matchers::StartsWith("?: 2 of 3 size(s) measured too noisily to support a verdict"));
  CHECK_THAT(legend, Catch::Matchers::Contains("   - 1 with 95% interval of the median +-5.0%"));
  CHECK_THAT(legend, Catch::Matchers::Contains("   - 1 with p95 30.0x the median"));
  CHECK_THAT(legend, Catch::Matchers::Contains("   - 1 with load: x\n"));
  for (std::size_t at = 0, end; (end = legend.find('\n', at)) != std::string::npos; at = end + 1)
    CHECK(end - at <= 100);
  CHECK_THAT(legend, Catch::Matchers::Contains("measure better: on a quiet machine"));
  CHECK_THAT(legend, Catch::Matchers::Contains("timing: {rounds: 10, time_budget: 2s}"));
}
