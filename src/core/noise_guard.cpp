// SPDX-License-Identifier: BSD-3-Clause
#include "core/noise_guard.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/oversubscription.hpp"
#include "core/report_facts.hpp"

namespace pico {

void MeasurementDoubt::merge(const MeasurementDoubt& other) {
  if (other.interval > interval) {
    interval = other.interval;
    target_ci = other.target_ci;
  }
  tail = std::max(tail, other.tail);
  if (load.empty()) load = other.load;
}

std::vector<std::string> MeasurementDoubt::reasons() const {
  std::vector<std::string> out;
  if (interval > 0)
    out.push_back(fmt::format("95% interval of the median +-{:.1f}% (over {:g} x target_ci {:g}%)", interval * 100,
                              kIntervalOverTarget, target_ci * 100));
  if (tail > 0) out.push_back(fmt::format("p95 {:.1f}x the median (over {:g}x)", tail, kTailOverMedian));
  if (!load.empty()) out.push_back("load: " + load);
  return out;
}

std::string MeasurementDoubt::text() const {
  std::string out;
  for (const std::string& r : reasons()) out += (out.empty() ? "" : "; ") + r;
  return out;
}

bool load_above_cores(double beside, int ranks, int cores) {
  return cores > 0 && beside + ranks > cores + kLoadSlack;
}

MeasurementDoubt doubt_of(const TimingStats& t, double target_ci, const std::string& load) {
  MeasurementDoubt d;
  d.load = load;
  if (!(t.median_s > 0)) return d;  // nothing measured: no figure to doubt
  const double half_width = std::max(t.median_s - t.ci95_low_s, t.ci95_high_s - t.median_s) / t.median_s;
  // An interval not recorded (both ends 0: a report of an older pico, a hand-made one) is no reason.
  const bool recorded = t.ci95_high_s > 0;
  if (recorded && half_width > kIntervalOverTarget * target_ci) {
    d.interval = half_width;
    d.target_ci = target_ci;
  }
  if (const double tail = t.p95_s / t.median_s; tail > kTailOverMedian) d.tail = tail;
  return d;
}

namespace {

std::string load_text(double beside, std::size_t ranks, const HostLoad& load) {
  return fmt::format("a load of {:.1f} beside {} rank(s) on host {} with {} cores", beside, ranks, load.host,
                     load.cores);
}

}  // namespace

NoiseContext::NoiseContext(const nlohmann::json& report) {
  const ReportFacts facts = report_facts(report);
  target_ci_ = facts.target_ci;
  if (const auto p = report.find("provenance"); report.is_object() && p != report.end())
    for (const Oversubscription& o : oversubscribed(*p)) {
      const std::string why = fmt::format("{} ranks on host {} with {} cores", o.ranks, o.host, o.cores);
      if (o.launch >= 0) loaded_launches_.try_emplace(o.launch, why);
      else if (loaded_all_.empty()) loaded_all_ = why;
    }
  // The recorded load holds for the front end's host: ranks elsewhere (a cluster's nodes) are not judged by it.
  if (const auto& load = facts.host_load) {
    for (const auto& [launch, hosts] : facts.launch_ranks)
      if (const auto it = hosts.find(load->host); it != hosts.end() && it->second > 0) {
        const int ranks = static_cast<int>(it->second);
        if (load_above_cores(load->beside(ranks), ranks, load->cores))
          loaded_launches_.try_emplace(launch, load_text(load->beside(ranks), it->second, *load));
      }
    if (facts.launch_ranks.empty())
      for (const ReportHost& h : facts.hosts)
        if (h.name == load->host && h.ranks > 0 && loaded_all_.empty() &&
            load_above_cores(load->beside(static_cast<int>(h.ranks)), static_cast<int>(h.ranks), load->cores))
          loaded_all_ = load_text(load->beside(static_cast<int>(h.ranks)), h.ranks, *load);
  }
}

MeasurementDoubt NoiseContext::doubt_of(const CaseResult& r) const {
  if (!r.measured()) return {};
  const auto it = loaded_launches_.find(r.launch);
  return pico::doubt_of(*r.timing, target_ci_, it != loaded_launches_.end() ? it->second : loaded_all_);
}

std::string noise_legend(const std::vector<MeasurementDoubt>& per_size, std::size_t sizes) {
  std::size_t marked = 0, interval = 0, tail = 0, load = 0;
  MeasurementDoubt worst;
  for (const MeasurementDoubt& d : per_size) {
    if (!d.any()) continue;
    ++marked;
    interval += d.interval > 0;
    tail += d.tail > 0;
    load += !d.load.empty();
    worst.merge(d);
  }
  if (marked == 0) return "";
  // Lines of at most 100 columns: the reasons one a line, the worst figure of each.
  std::string out = fmt::format(
      "{}: {} of {} size(s) measured too noisily to support a verdict; their winners, speedups\n"
      "   and verdicts may be noise (the worst figure of each reason):\n",
      kNoiseMark, marked, sizes);
  const std::vector<std::string> reasons = worst.reasons();  // interval, tail, load, in that order, where present
  std::size_t at = 0;
  for (const std::size_t n : {interval, tail, load})
    if (n > 0 && at < reasons.size()) out += fmt::format("   - {} with {}\n", n, reasons[at++]);
  return out +
         "measure better: on a quiet machine (no other jobs, at most one rank per core), with more rounds\n"
         "   and repetitions and a longer budget: timing: {rounds: 10, time_budget: 2s} and repetitions: 3\n";
}

}  // namespace pico
