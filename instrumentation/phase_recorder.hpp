// SPDX-License-Identifier: BSD-3-Clause
// Per-phase time and counters of instrumented calls (reference algorithms
// mark their phases through the Transport's phase hook). Used outside the
// timed loop, in a separate instrumented pass, so timing stays untouched.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instrumentation/papi_counters.hpp"

namespace pico {

struct PhaseSample {
  std::string name;
  double seconds = 0;
  std::vector<long long> counters;  // in the order of PapiCounters::events()
};

class PhaseRecorder {
 public:
  explicit PhaseRecorder(PapiCounters* papi = nullptr) : papi_(papi) {}

  void begin_call();
  void enter(const char* name);  // closes the open phase, opens `name`
  void end_call();
  // Closes the open phase and adds a phase timed elsewhere (a device-side
  // interval between two CUDA events), with no counters.
  void add(const char* name, double seconds);

  // One entry per call, each the phases of that call in order.
  const std::vector<std::vector<PhaseSample>>& calls() const { return calls_; }

 private:
  void close_open_phase();
  PapiCounters* papi_;
  std::vector<std::vector<PhaseSample>> calls_;
  const char* open_ = nullptr;
  std::chrono::steady_clock::time_point opened_at_;
  std::vector<long long> counters_at_open_, counters_now_;
};

// The Transport phase policy that forwards to a recorder.
struct PhaseHook {
  PhaseRecorder* recorder = nullptr;
  void operator()(const char* name) const { recorder->enter(name); }
};

struct PhaseSummary {
  std::string name;
  double seconds = 0;               // median over calls of the phase's time per call
  std::vector<double> counters;     // median over calls, per event
};

// Phases in order of first appearance; a phase entered several times in one
// call counts as the sum; a call without it counts as zero.
std::vector<PhaseSummary> summarize_phases(const std::vector<std::vector<PhaseSample>>& calls, std::size_t events);

nlohmann::json phases_to_json(const std::vector<PhaseSummary>& phases, const std::vector<std::string>& events);

}  // namespace pico
