// SPDX-License-Identifier: BSD-3-Clause
#include "plan/wall_estimate.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

#include "config/units.hpp"

namespace pico {

namespace {

// The uncalibrated range: what the README's examples took against their timed loops on a 2-core VM
// (docs/benchmarks.md: 0.28x to 1.94x, MPICH's sweep 16.5x beyond it), and a launch's start and end.
constexpr double kLoopsLow = 0.25, kLoopsHigh = 3.0;
constexpr double kLaunchLowS = 0.5, kLaunchPointS = 1.0, kLaunchHighS = 2.0;

// The candidates of one choice in one launch, as the worker groups them (worker/race_runner.cpp).
std::string choice_of(const Case& c) { return fmt::format("{}/{}", choice_id(c, false), c.repetition); }

// Positions 0..n-1 at k even steps, the ends first, then the middle ones from the centre out.
std::vector<std::size_t> pilot_positions(std::size_t n, std::size_t k) {
  k = std::min(k, n);
  if (k == 0) return {};
  if (k == 1) return {0};
  std::vector<std::size_t> steps{0, k - 1};
  for (std::size_t j = 1; j + 1 < k; ++j) steps.push_back(j);
  std::stable_sort(steps.begin() + 2, steps.end(), [&](std::size_t a, std::size_t b) {
    const auto off = [&](std::size_t j) { return std::abs(2 * static_cast<long>(j) - static_cast<long>(k - 1)); };
    return off(a) < off(b);
  });
  std::vector<std::size_t> out;
  for (std::size_t j : steps) out.push_back(j * (n - 1) / (k - 1));
  return out;
}

struct SizePoint {
  double low = 0, high = 0;
  int n = 0;
};

// `v` at `x`: linear in bytes between the measured sizes, the nearest one's beyond them.
double interpolated(const std::map<std::uint64_t, SizePoint>& at, std::uint64_t x, double SizePoint::*v) {
  const auto above = at.lower_bound(x);
  if (above == at.end()) return std::prev(above)->second.*v / std::prev(above)->second.n;
  if (above == at.begin() || above->first == x) return above->second.*v / above->second.n;
  const auto below = std::prev(above);
  const double v0 = below->second.*v / below->second.n, v1 = above->second.*v / above->second.n;
  const double t = static_cast<double>(x - below->first) / static_cast<double>(above->first - below->first);
  return v0 + t * (v1 - v0);
}

std::string range_text(double a, double b) {
  const std::string x = format_duration(a), y = format_duration(b);
  return x == y ? x : x + "-" + y;
}

}  // namespace

Plan pilot_plan(const Plan& plan) {
  Plan pilot;
  pilot.timing = plan.timing;
  pilot.timing.time_budget_s = std::min(plan.timing.time_budget_s, kPilotBudgetS);
  pilot.validation = plan.validation;
  pilot.instrumentation = plan.instrumentation;
  pilot.repetition_seed = plan.repetition_seed;
  const auto largest = std::max_element(plan.groups.begin(), plan.groups.end(),
                                        [](const auto& a, const auto& b) { return a.cases.size() < b.cases.size(); });
  if (largest == plan.groups.end() || largest->cases.empty()) return pilot;
  const LaunchGroup& group = *largest;
  std::map<std::string, std::size_t> candidates;
  for (const Case& c : group.cases) ++candidates[choice_of(c)];
  // Each backend's cases by size (a compressed allreduce costs 3-20x the library's at one size): the pilot
  // takes each backend's sizes in turn.
  std::vector<std::string> backends;
  std::map<std::string, std::vector<const Case*>> by_size;
  for (const Case& c : group.cases) {
    if (!by_size.contains(c.backend)) backends.push_back(c.backend);
    by_size[c.backend].push_back(&c);
  }
  std::map<std::string, std::vector<std::size_t>> positions;
  const std::size_t per_backend = std::max<std::size_t>(2, kPilotSizes / backends.size());
  for (auto& [backend, cases] : by_size) {
    std::stable_sort(cases.begin(), cases.end(), [](const Case* a, const Case* b) { return a->bytes < b->bytes; });
    positions[backend] = pilot_positions(cases.size(), per_backend);
  }
  const bool interleaved = plan.timing.rounds > 1 && !plan.timing.race;
  std::set<std::string> taken;
  LaunchGroup out{group.np, group.env, {}};
  for (std::size_t step = 0; step < per_backend; ++step)
    for (const std::string& backend : backends) {
      if (step >= positions[backend].size()) continue;
      const Case& c = *by_size[backend][positions[backend][step]];
      const std::string choice = choice_of(c);
      if (!taken.insert(choice).second) continue;
      out.cases.push_back(c);
      if (!interleaved || candidates[choice] < 2) continue;
      const auto other = std::find_if(group.cases.begin(), group.cases.end(),
                                      [&](const Case& d) { return choice_of(d) == choice && d.case_id != c.case_id; });
      out.cases.push_back(*other);
    }
  pilot.cases = out.cases;
  pilot.groups.push_back(std::move(out));
  return pilot;
}

WallEstimate estimate_wall(const Plan& plan, const Calibration* calibration) {
  WallEstimate e;
  e.cases = runnable_cases(plan);
  e.launches = plan.groups.size();
  e.budget_s = plan.timing.time_budget_s;
  const auto launches = static_cast<double>(e.launches);
  if (calibration == nullptr || calibration->cases.empty()) {
    const double loops = timed_loops_s(plan);
    e.low_s = kLoopsLow * loops + kLaunchLowS * launches;
    e.point_s = loops + kLaunchPointS * launches;
    e.high_s = kLoopsHigh * loops + kLaunchHighS * launches;
    return e;
  }
  e.calibrated = true;
  const double budget = plan.timing.time_budget_s, pilot_budget = calibration->pilot_budget_s;
  // By backend where the pilot measured the case's backend, else all the pilot's cases.
  std::map<std::string, std::map<std::uint64_t, SizePoint>> by_backend;
  std::map<std::uint64_t, SizePoint> all;
  for (const PilotCase& p : calibration->cases) {
    double longer = 0;
    if (p.budget_cut && budget > pilot_budget) {
      // The plan's loop runs to its budget at most, or to max_iterations at the pilot's time per sample.
      const double per_sample = p.iterations > 0 ? pilot_budget / static_cast<double>(p.iterations) : 0;
      const double loop =
          per_sample > 0 ? std::min(budget, static_cast<double>(plan.timing.max_iterations) * per_sample) : budget;
      longer = std::max(0.0, loop - pilot_budget) * (p.nonblocking ? 2 : 1);
    }
    for (SizePoint* s : {&by_backend[p.backend][p.bytes], &all[p.bytes]}) {
      s->low += p.case_s;
      s->high += p.case_s + longer;
      ++s->n;
    }
  }
  e.case_low_s = e.case_high_s = all.begin()->second.low / all.begin()->second.n;
  for (const auto& [bytes, s] : all) {
    e.case_low_s = std::min(e.case_low_s, s.low / s.n);
    e.case_high_s = std::max(e.case_high_s, s.high / s.n);
  }
  double low = calibration->launch_s * launches, high = low;
  for (const auto& g : plan.groups)
    for (const auto& c : g.cases) {
      const auto own = by_backend.find(c.backend);
      const auto& at = own != by_backend.end() ? own->second : all;
      low += interpolated(at, c.bytes, &SizePoint::low);
      high += interpolated(at, c.bytes, &SizePoint::high);
    }
  e.point_s = (low + high) / 2;
  e.low_s = low / kLoadSpread;
  e.high_s = high * kLoadSpread;
  return e;
}

std::string wall_estimate_text(const WallEstimate& e, const Calibration* calibration, const std::string& platform,
                               const std::string& why_uncalibrated) {
  if (!e.calibrated || calibration == nullptr)
    return fmt::format(
        "about {} of wall time, uncalibrated ({}): a quarter of the timed loops to 3x them, and "
        "{}-{} a launch",
        range_text(e.low_s, e.high_s),
        why_uncalibrated.empty() ? "no pilot: --estimate runs a few of its cases, a few seconds of MPI, to measure this"
                                   " platform"
                                 : why_uncalibrated,
        format_duration(kLaunchLowS), format_duration(kLaunchHighS));
  std::uint64_t smallest = calibration->cases.front().bytes, largest = smallest;
  bool cut = false;
  for (const PilotCase& p : calibration->cases) {
    smallest = std::min(smallest, p.bytes), largest = std::max(largest, p.bytes);
    cut = cut || p.budget_cut;
  }
  const std::string sizes =
      smallest == largest ? format_size(smallest) : format_size(smallest) + "-" + format_size(largest);
  return fmt::format(
      "about {} of wall time ({} at its middle), from a pilot of {} of its cases{} just run on '{}' (one launch of "
      "np {}, {}): {} a launch to start and end, {} a case at {}{}; {}x either way for the load",
      range_text(e.low_s, e.high_s), format_duration(e.point_s), calibration->cases.size(),
      calibration->scaled > 0 ? fmt::format(" ({} stopped between rounds, scaled to all)", calibration->scaled) : "",
      platform, calibration->np, format_duration(calibration->wall_s), format_duration(calibration->launch_s),
      range_text(e.case_low_s, e.case_high_s), sizes,
      cut ? fmt::format(", loops cut at the pilot's {} budget taken up to the plan's {}",
                        format_duration(calibration->pilot_budget_s), format_duration(e.budget_s))
          : "",
      kLoadSpread);
}

}  // namespace pico
