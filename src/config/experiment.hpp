// SPDX-License-Identifier: BSD-3-Clause
// An experiment: what to measure, portable across platforms.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "stats/race.hpp"

namespace pico {

struct BackendSpec {
  std::string library = "mpi";                     // a backend's name (config/backends.hpp)
  // {"all", ...}: every algorithm of the catalogue's own component (one launch on Open MPI), expanded by
  // the plan, and the other components' algorithms named after it (han, adapt: launches of their own).
  std::vector<std::string> algorithms{"default"};
  bool sweeps_all() const { return !algorithms.empty() && algorithms.front() == "all"; }
  std::map<std::string, std::vector<double>> params;  // e.g. segment_size: [0, 65536], topk_ratio: [0.01]
  std::map<std::string, std::string> options;  // the backend's own keys, as its option parser read them
  // `guidelines: true`: beside its algorithms, each collective's performance-guideline mock-ups
  // (core/guidelines.hpp), expanded by the plan. Backends whose descriptor has_guidelines.
  bool guidelines = false;
};

// Per-phase measurements, taken in a separate instrumented pass after the
// timed loop, for backends whose algorithms mark phases (reference).
struct InstrumentationSpec {
  bool phases = false;
  std::vector<std::string> papi;  // PAPI event names, e.g. perf::TASK-CLOCK
  int calls = 10;                 // instrumented calls per case
};

// Rounds an interleaved sweep measures each candidate in unless timing.rounds
// says: enough for per-round ratios to outvote one disturbed round, few enough
// that a round's set-up stays small beside its timed loop.
inline constexpr int kDefaultRounds = 5;

struct TimingSpec {
  TimingMode mode = TimingMode::latency;
  int warmup = 5;
  std::int64_t min_iterations = 10;
  std::int64_t max_iterations = 100000;
  double time_budget_s = 1.0;     // per case, timed loop only
  double target_ci = 0.02;        // stop when the 95% CI of the median is within this fraction
  double case_timeout_s = 60.0;   // wall time after which a case is killed and recorded failed
  bool keep_samples = false;      // keep raw per-iteration samples in the report
  // Per-rank timing (docs/methodology.md#per-rank-timing): every rank's entry
  // and exit of each sample, the launch's clock offsets and the gather after
  // each timed loop. Off: the leanest loop, and no stragglers judged.
  bool rank_timing = true;
  // Calls per sample (docs/methodology.md#calls-per-sample): throughput mode
  // times this many back-to-back calls together and divides, as nccl-tests
  // does; 1 gives one sample per call (a distribution). Latency mode: always 1.
  std::int64_t calls_per_sample = 1;
  // GPU backends: the calls_per_sample calls are captured once in a CUDA graph
  // and a sample is one replay of it (`graph: N` sets both).
  bool graph = false;
  // Race the algorithms of each choice instead of measuring every one to the
  // end (docs/tuning.md#racing): budget per launch, and grid refinement.
  std::optional<RaceSpec> race;
  // Interleaved rounds (docs/methodology.md#rounds): the candidates of one
  // choice (every case that differs only in backend, algorithm and
  // parameters) are measured `rounds` times each, a round measuring every
  // candidate once with time_budget / rounds, in an order shuffled per round
  // from order_seed, so that a slow period of the machine hits them alike.
  // 1: each case measured to the end in plan order.
  int rounds = kDefaultRounds;
  std::uint64_t order_seed = 1;  // the experiment's repetition_seed
  // The target_ci rule may stop the timed loop from this many samples on (an
  // interleaved round's worker sets 5: one sample's interval has no width,
  // and it would stop every round at one). Not read from YAML, not sent.
  std::int64_t precise_from = 1;
};

// nccl-tests' -n: the calls a throughput sample holds unless calls_per_sample says.
inline constexpr std::int64_t kDefaultCallsPerSample = 20;

struct Experiment {
  std::string name;
  std::string description;
  std::vector<Collective> collectives;
  std::vector<std::uint64_t> sizes;   // bytes per rank block; exactly one of sizes / counts is set
  std::vector<std::uint64_t> counts;  // elements per rank block
  // Where given (sizes_by_collective), the sizes of each collective, which
  // it is measured at instead of all of `sizes` (their union): the sweep an
  // application needs (docs/applications.md#tuning-for-the-application).
  std::map<Collective, std::vector<std::uint64_t>> sizes_by_collective;
  std::vector<Dtype> dtypes{Dtype::float32};
  std::vector<Op> ops{Op::sum};
  std::vector<int> processes{2};
  std::vector<bool> in_place{false};  // in_place: false | true | both
  // The count-matrix patterns alltoallv cases sweep, as canonical texts
  // (collectives/count_matrix.hpp); other collectives ignore them.
  std::vector<std::string> count_patterns{"uniform"};
  std::vector<BackendSpec> backends{BackendSpec{}};
  TimingSpec timing;
  InstrumentationSpec instrumentation;
  bool validation = true;
  // The plan runs this many times, each repetition in launches of its own,
  // its cases and launches in an order shuffled from repetition_seed.
  int repetitions = 1;
  std::uint64_t repetition_seed = 1;

  // What pico reads as written but the user may not have meant, as "WHERE: WHAT"
  // ("exp.yaml:3:9: '64KB' is 64000 B ..."); printed as pico: warning: lines
  // with the plan's own (plan.hpp).
  std::vector<std::string> warnings;
  std::string source_path;  // where it was read from ("" for one built in memory)
  std::string source_text;  // the file as given, kept for provenance
};

// The keys the parser takes at an experiment's top level, in its timing and
// in its instrumentation: what report.json's experiment must record
// (config/to_json.hpp; tests/unit/config/test_experiment_json.cpp holds it to them),
// and docs/configuration.md's tables (tests/unit/config/test_keys_documented.cpp).
const std::vector<std::string>& experiment_keys();
const std::vector<std::string>& timing_keys();
const std::vector<std::string>& instrumentation_keys();

// Throws InputError naming file, line and column.
Experiment parse_experiment(const std::string& yaml_text, const std::string& file_for_messages);
Experiment load_experiment(const std::string& path);

}  // namespace pico
