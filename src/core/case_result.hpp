// SPDX-License-Identifier: BSD-3-Clause
// The record one case produces: what the worker measured, or why the front
// end recorded it failed or skipped without a measurement. One type from the
// worker's cases.jsonl line to report.json and the renderers; its JSON keys
// are spelled here and nowhere else (format: docs/report.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.hpp"
#include "core/compression_metrics.hpp"
#include "stats/race.hpp"
#include "stats/stats.hpp"

namespace pico {

enum class CaseStatus { ok, failed, skipped };
std::string_view name(CaseStatus s);
std::optional<CaseStatus> parse_case_status(std::string_view s);

struct Validation {
  std::string status = "skipped";  // passed | failed | skipped
  std::uint64_t mismatches = 0;
};

// Which algorithm the library was seen to run during the case (Open MPI: an
// interposer on libmpi's ompi_coll_base_* functions; docs/verification.md).
// Absent where nothing observed it.
struct ActualSelection {
  std::string algorithm;               // catalogue name; "" when the functions seen map to none
  std::vector<std::string> functions;  // the library functions seen, in first-call order
  std::string source;                  // how it was observed, e.g. "interposer"
  std::string note;                    // e.g. why more than one function ran
  // Not recorded (the note says it): a component (Open MPI's han) ran some
  // calls and handed the rest back, so the case did not run as itself even
  // where no catalogued function shows what ran instead.
  bool handed_back = false;
};

// What the worker saw when it put the case's selection in force. Absent from
// records the front end writes (the case never reached a worker).
struct SelectionOutcome {
  bool verified = false;
  bool refused = false;   // MPI_T writing failed: the front end reruns it with environment variables
  std::string applied;    // the selection variable's value as read back
  std::string note;       // why not verified, or refused
  nlohmann::json reported;  // the library's own account of its choice (NCCL's log); null when none
  std::optional<ActualSelection> actual;  // `selection.actual`
};

// The record's timing_method values: how each sample was taken
// (docs/methodology.md#calls-per-sample). Written by the worker's timing loop,
// read back by the tables.
namespace timing_method {
inline constexpr std::string_view kBarrierEach = "barrier_each";  // latency: one call after a barrier
inline constexpr std::string_view kBackToBack = "back_to_back";   // one call of back-to-back calls
inline constexpr std::string_view kBatch = "batch";               // calls_per_sample calls timed together
inline constexpr std::string_view kGraph = "graph";               // one replay of a CUDA graph of them
}  // namespace timing_method
// The tables' line for one timing_method and its calls_per_sample ("" for a method this build does not know).
std::string sampling_text(std::string_view method, std::int64_t calls);

// A non-blocking call's overlap of communication with computation, measured
// as OSU 7.4's non-blocking benchmarks do (osu_iallreduce & co.; the worker's
// overlap.cpp; docs/methodology.md#overlap). Each time is the mean per call on
// a rank, averaged over the ranks.
struct Overlap {
  std::int64_t iterations = 0;  // calls in each of the two loops
  double pure_comm_s = 0;       // start then wait, nothing between (OSU's "Pure Comm.")
  double overall_s = 0;         // start, compute, wait (OSU's "Overall")
  double compute_s = 0;         // the compute put between, calibrated on each rank to its pure_comm_s
  double init_s = 0;            // the start call alone (OSU's "Init")
  double wait_s = 0;            // the wait after the compute (OSU's "MPI_Wait")
  double percent = 0;           // osu_percent of the above

  // OSU 7.4's print_stats_nbc: max(0, 100 - (overall - compute) / pure_comm x 100),
  // from the rank-averaged times. pico makes no MPI_Test calls during the
  // compute, so OSU's test time (subtracted from its compute) is 0 (its
  // default, no -t). 0 where pure_comm_s is not positive.
  static double osu_percent(double overall_s, double compute_s, double pure_comm_s);
};

// A raced case's part in its race (timing.race; docs/tuning.md#racing): the
// case's timing pools the rounds it ran.
struct RaceRecord {
  RaceFate fate = RaceFate::survived;
  std::string reason;      // why it was dropped or failed
  int rounds = 0;          // rounds this case was measured in
  int race_rounds = 0;     // rounds its race ran
  int entrants = 0;        // candidates that started the race
  std::string winner;      // the winning candidate ("chain segment_size=8192"); "" when none survived
  std::string stop;        // why the race ended (stats/race.hpp's RaceOutcome::stop)
  double budget_s = 0;     // what the race could spend
  double spent_s = 0;      // what it spent, every entrant's rounds with their set-up
};

// A case measured in rounds (an interleaved sweep's, timing.rounds, or a
// race's; docs/methodology.md#rounds): what each round it ran measured and
// where in that round's order it ran, so that candidates are compared round
// by round (tuning/bootstrap.hpp) rather than over pooled samples taken at
// different moments. Round k of every candidate of one choice in one launch
// ran back to back.
struct RoundsRecord {
  std::uint64_t seed = 0;          // the choice's order seed (stats/race.hpp's round_order)
  std::vector<int> order;          // its place in each round's order (0: measured first)
  std::vector<double> median_s;    // each round's median sample
  std::vector<std::int64_t> samples;  // each round's sample count (samples_s, when kept, in this split)
};

struct CaseResult {
  Case c;  // the defining fields, as plan.json has them
  std::string library;  // the MPI library's short name; "" when no worker ran the case
  CaseStatus status = CaseStatus::ok;
  std::string reason;
  std::int64_t iterations = 0;
  int warmup = 0;
  std::string stop_reason;
  // How each sample was taken: barrier_each | back_to_back | batch | graph
  // (docs/methodology.md#calls-per-sample), and the calls one sample held; "" and 0
  // where no worker timed the case.
  std::string timing_method;
  std::int64_t calls_per_sample = 0;
  std::optional<TimingStats> timing;
  std::optional<double> algbw_GBps;
  std::optional<double> busbw_GBps;
  Validation validation;
  double elapsed_s = 0;
  int launch = -1;  // the launch that ran (or gave up on) the case; -1 for none
  std::optional<SelectionOutcome> selection;
  std::optional<std::vector<double>> samples_s;  // timing.keep_samples
  // Backend-specific parts, carried as their producers wrote them
  // (instrumentation/phase_recorder, the device and compressed backends).
  std::optional<nlohmann::json> phases;
  std::optional<std::string> phases_note;
  std::optional<nlohmann::json> device;
  std::optional<nlohmann::json> compression;
  // Its numbers pico reads, typed (none where the case has no compression record).
  CompressionMetrics compression_metrics() const {
    return compression ? CompressionMetrics::of(*compression) : CompressionMetrics{};
  }
  std::optional<Overlap> overlap;  // non-blocking calls (the mpi backend's call: nonblocking)
  std::optional<RaceRecord> race;  // timing.race
  std::optional<RoundsRecord> rounds;  // timing.rounds > 1 or timing.race
  // Per-rank timing (core/rank_timing.hpp, core/rank_samples.hpp), as the
  // worker wrote them: the summary always, where the samples were host-timed;
  // every rank's arrivals and exits with timing.keep_samples.
  std::optional<nlohmann::json> rank_timing;
  std::optional<nlohmann::json> rank_samples;
  // timing.rank_timing: false: measured without per-rank timing, so its
  // stragglers are not measured (not "none"). Kept per case: a case record is read alone too.
  bool rank_timing_off = false;

  bool measured() const { return status == CaseStatus::ok && timing.has_value(); }
  // Sets status failed with the reason.
  void fail(std::string why);
};

// A result that carries no measurement: failed (or skipped) with its reason.
CaseResult unmeasured_result(const Case& c, CaseStatus status, std::string reason, int launch, double elapsed_s);

// One line of cases.jsonl, one element of report.json's `cases`.
nlohmann::json to_json(const CaseResult& r);
// Inverse of to_json. The defining fields are required (case_from_json); the
// rest default when absent, so reports of older runs still read. Throws
// std::runtime_error on a malformed object.
CaseResult case_result_from_json(const nlohmann::json& j);

// The report's cases, in report order (render, compare, tune).
std::vector<CaseResult> case_results_of(const nlohmann::json& report);

}  // namespace pico
