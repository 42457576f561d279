// SPDX-License-Identifier: BSD-3-Clause
#include "instrumentation/phase_recorder.hpp"

#include <algorithm>

namespace pico {

void PhaseRecorder::begin_call() {
  calls_.emplace_back();
  open_ = nullptr;
}

void PhaseRecorder::close_open_phase() {
  if (open_ == nullptr) return;
  PhaseSample s;
  s.name = open_;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_at_).count();
  if (papi_ != nullptr && papi_->active()) {
    papi_->read(counters_now_);
    s.counters.resize(counters_now_.size());
    for (std::size_t i = 0; i < counters_now_.size(); ++i) s.counters[i] = counters_now_[i] - counters_at_open_[i];
  }
  calls_.back().push_back(std::move(s));
  open_ = nullptr;
}

void PhaseRecorder::enter(const char* name) {
  close_open_phase();
  open_ = name;
  if (papi_ != nullptr && papi_->active()) papi_->read(counters_at_open_);
  opened_at_ = std::chrono::steady_clock::now();
}

void PhaseRecorder::end_call() { close_open_phase(); }

void PhaseRecorder::add(const char* name, double seconds) {
  close_open_phase();
  PhaseSample s;
  s.name = name;
  s.seconds = seconds;
  calls_.back().push_back(std::move(s));
}

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

std::vector<PhaseSummary> summarize_phases(const std::vector<std::vector<PhaseSample>>& calls, std::size_t events) {
  std::vector<std::string> names;
  for (const auto& call : calls)
    for (const auto& s : call)
      if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
  std::vector<PhaseSummary> out;
  for (const auto& name : names) {
    std::vector<double> seconds;
    std::vector<std::vector<double>> counters(events);
    for (const auto& call : calls) {
      double t = 0;
      std::vector<double> c(events, 0.0);
      for (const auto& s : call) {
        if (s.name != name) continue;
        t += s.seconds;
        for (std::size_t e = 0; e < events && e < s.counters.size(); ++e) c[e] += static_cast<double>(s.counters[e]);
      }
      seconds.push_back(t);
      for (std::size_t e = 0; e < events; ++e) counters[e].push_back(c[e]);
    }
    PhaseSummary p{name, median(seconds), {}};
    for (auto& c : counters) p.counters.push_back(median(c));
    out.push_back(std::move(p));
  }
  return out;
}

nlohmann::json phases_to_json(const std::vector<PhaseSummary>& phases, const std::vector<std::string>& events) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : phases) {
    nlohmann::json counters = nlohmann::json::object();
    for (std::size_t e = 0; e < events.size() && e < p.counters.size(); ++e) counters[events[e]] = p.counters[e];
    out.push_back({{"name", p.name}, {"time_s", p.seconds}, {"counters", counters}});
  }
  return out;
}

}  // namespace pico
