// SPDX-License-Identifier: BSD-3-Clause
#include "worker/case_runner.hpp"

#include <exception>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/backend.hpp"
#include "collectives/spec.hpp"
#include "config/backends.hpp"
#include "core/guidelines.hpp"
#include "harness/harness.hpp"
#include "stats/stats.hpp"
#include "worker/algorithm_selector.hpp"
#include "worker/backend_registry.hpp"
#include "worker/overlap.hpp"
#include "worker/rank_timing_record.hpp"
#include "worker/timing_loop.hpp"

namespace pico {
namespace {

// True on every rank when every rank succeeded; the first failing rank's message otherwise.
bool all_ranks_ok(MPI_Comm comm, const std::string& local_error, std::string& error_out) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // The lowest failing rank's message travels to everyone.
  int first_failed = local_error.empty() ? INT32_MAX : rank;
  harness::allreduce(comm, &first_failed, 1, harness::Reduction::min);
  if (first_failed == INT32_MAX) return true;
  error_out = fmt::format("rank {}: {}", first_failed, harness::broadcast_string(comm, local_error, first_failed));
  return false;
}

// The instrumented pass: per phase, the median over calls on each rank, then
// the slowest rank (max), as the report's `phases`.
void record_phases(Backend& backend, const CaseContext& ctx, CaseResult& r) {
  PhaseRecorder recorder(ctx.papi);
  const bool recorded =
      backend.record_phases(ctx.instrumentation.calls, recorder, [&] { harness::barrier(ctx.harness); });
  if (!recorded) {
    r.phases = nlohmann::json::array();
    r.phases_note = "this backend's algorithms mark no phases (the library's collectives are opaque)";
    return;
  }
  const std::size_t events = ctx.papi->events().size();
  const auto phases = summarize_phases(recorder.calls(), events);
  // Same phases on every rank (one algorithm), so values reduce position by position.
  int shape[2] = {static_cast<int>(phases.size()), -static_cast<int>(phases.size())};
  harness::allreduce(ctx.harness, shape, 2, harness::Reduction::max);
  std::vector<double> values;
  for (const auto& p : phases) {
    values.push_back(p.seconds);
    values.insert(values.end(), p.counters.begin(), p.counters.end());
  }
  if (shape[0] != -shape[1]) {
    r.phases = phases_to_json(phases, ctx.papi->events());
    r.phases_note = "ranks marked different phases: rank 0's values, not the maximum over ranks";
    return;
  }
  harness::allreduce(ctx.harness, values.data(), static_cast<int>(values.size()), harness::Reduction::max);
  auto slowest = phases;
  std::size_t at = 0;
  for (auto& p : slowest) {
    p.seconds = values[at++];
    for (auto& counter : p.counters) counter = values[at++];
  }
  r.phases = phases_to_json(slowest, ctx.papi->events());
  if (!ctx.papi->warnings().empty()) r.phases_note = fmt::format("{}", fmt::join(ctx.papi->warnings(), "; "));
}

// Where selection.actual comes from for this case's backend.
RanAlgorithmSource source_for(const Case& c, const CaseContext& ctx) {
  if (ctx.ran_algorithm != nullptr)
    if (auto it = ctx.ran_algorithm->find(c.backend); it != ctx.ran_algorithm->end()) return it->second;
  return {"none", "the launch request says nothing of how to see which algorithm ran"};
}

// What ran, as the interposer saw it on every rank (rank 0's account; a note
// when ranks disagree). Collective over harness.
ActualSelection seen_by_interposer(const Case& c, const CaseContext& ctx, std::int64_t calls) {
  ActualSelection actual;
  actual.source = "interposer";
  const RanAlgorithm ran = ran_algorithm(ctx.interposer->seen(), *ctx.algorithm_functions, c.collective, calls);
  actual.algorithm = ran.algorithm;
  actual.functions = ran.functions;
  actual.note = ran.note;
  actual.handed_back = !ran.handed_back_by.empty();
  // The same algorithm on every rank: compare a hash of the name.
  const auto h = static_cast<unsigned long long>(std::hash<std::string>{}(ran.algorithm) >> 1);
  unsigned long long range[2] = {h, ~h};
  harness::allreduce(ctx.harness, range, 2, harness::Reduction::max);
  if (range[0] != ~range[1])
    actual.note += std::string(actual.note.empty() ? "" : "; ") + "ranks ran different algorithms: rank 0's shown";
  return actual;
}

// selection.actual for a case whose `calls` calls have run.
ActualSelection actual_selection(const Case& c, const CaseContext& ctx, std::int64_t calls) {
  const RanAlgorithmSource source = source_for(c, ctx);
  if (source.source == "interposer" && ctx.interposer != nullptr) return seen_by_interposer(c, ctx, calls);
  ActualSelection actual;
  if (source.source == "pico") {
    actual.source = "pico";
    actual.algorithm = c.algorithm;
    actual.note = "pico's own implementation runs the algorithm it is named for";
    return actual;
  }
  actual.source = "none";
  actual.note = source.source == "interposer" ? ctx.interposer_missing : source.why;
  return actual;
}

// A forced algorithm the library did not run as itself: the catalogue's
// constraints missed a fallback. The timing stays, labelled failed.
std::string mislabel(const Case& c, const ActualSelection& actual) {
  // A mock-up calls other collectives under the library's defaults: nothing of its own to run as itself.
  if (is_guideline(c.algorithm)) return "";
  if (c.algorithm != "default" && actual.source == "interposer" && actual.handed_back && actual.algorithm.empty())
    return fmt::format("Open MPI did not run {} for every call of this case (seen by the interposer; {})",
                       c.algorithm, actual.note);
  if (c.algorithm == "default" || actual.source != "interposer" || actual.algorithm.empty() ||
      actual.algorithm == c.algorithm)
    return "";
  return fmt::format("Open MPI ran {} for this case, not {} (seen by the interposer; {})", actual.algorithm,
                     c.algorithm, actual.note.empty() ? "a fallback the catalogue's constraints miss" : actual.note);
}

SelectionOutcome outcome_of(const AppliedSelection& a) {
  SelectionOutcome o;
  o.verified = a.verified;
  o.refused = a.refused;
  o.applied = a.applied;
  o.note = a.note;
  return o;
}

}  // namespace

CaseResult run_case(const Case& c, const CaseContext& ctx) {
  const double case_start = MPI_Wtime();
  CaseResult r;
  r.c = c;
  r.library = ctx.library;
  r.warmup = ctx.timing.warmup;
  r.launch = ctx.launch;
  auto finish = [&]() -> CaseResult {
    r.elapsed_s = MPI_Wtime() - case_start;
    return r;
  };

  const AppliedSelection selection = ctx.selector->apply(c.selection);
  r.selection = outcome_of(selection);
  if (selection.refused || !selection.verified) {
    // A measurement under another algorithm than its label would mislead: none is made.
    r.fail((selection.refused ? "selection refused: " : "selection not verified: ") + selection.note);
    return finish();
  }

  std::unique_ptr<Backend> backend;
  std::string local_error;
  try {
    backend = make_backend(backend_descriptor(c.backend).kind, c);
    backend->prepare(c, selection.comm);
  } catch (const std::exception& e) {
    local_error = e.what();
  }
  std::string error;
  if (!all_ranks_ok(ctx.harness, local_error, error)) {
    r.fail("prepare: " + error);
    return finish();
  }

  r.selection->reported = backend->reported_selection();
  if (ctx.interposer != nullptr) ctx.interposer->reset();
  const TimedSamples timed = run_timed(*backend, ctx.timing, ctx.harness);
  r.selection->actual = actual_selection(c, ctx, timed.calls);
  if (auto device = backend->device(); !device.is_null()) r.device = std::move(device);
  if (!all_ranks_ok(ctx.harness, backend->deferred_error(), error)) {
    r.fail("timed calls: " + error);
    backend->release();
    return finish();
  }
  const TimingStats stats = compute_stats(timed.samples_s);
  // A fault's name says what happens around the library's default, which is what ran (the plan selects it).
  const bool named_for_algorithm = !backend_descriptor(c.backend).rides_on_library_default;
  if (const std::string wrong = mislabel(c, *r.selection->actual); named_for_algorithm && !wrong.empty()) r.fail(wrong);
  r.iterations = stats.iterations;
  r.stop_reason = timed.stop_reason;
  const Pacing pacing = pacing_of(ctx.timing);
  r.timing_method = std::string(method_name(pacing));
  r.calls_per_sample = pacing.calls_per_sample;
  r.timing = stats;
  r.algbw_GBps = algbw_GBps(c, stats.median_s);
  r.busbw_GBps = busbw_GBps(c, stats.median_s);
  if (ctx.timing.keep_samples) r.samples_s = timed.samples_s;
  record_rank_timing(timed, ctx, r);
  if (backend->splits_call())  // a non-blocking call: how much of it computation hides (OSU's overlap)
    r.overlap = measure_overlap(*backend, overlap_iterations(c.bytes), ctx.timing.warmup, ctx.timing.time_budget_s,
                                ctx.harness);

  if (ctx.instrumentation.phases || backend->always_records_phases()) record_phases(*backend, ctx, r);

  if (ctx.validation && spec_for(c.collective).has_payload) {
    harness::barrier(ctx.harness);
    unsigned long long total = 0;
    std::string validation_error;
    try {
      total = backend->validate();
    } catch (const std::exception& e) {  // a device backend's call or copy failed
      validation_error = e.what();
    }
    harness::allreduce(ctx.harness, &total, 1, harness::Reduction::sum);
    r.validation = {total == 0 ? "passed" : "failed", total};
    if (!all_ranks_ok(ctx.harness, validation_error, error)) {
      r.validation.status = "failed";
      r.fail("validation: " + error);
    } else if (total != 0) {
      r.fail(fmt::format("validation: {} mismatching element{}", total, total == 1 ? "" : "s"));
    }
  }
  if (auto compression = backend->compression(ctx.harness); !compression.is_null()) {
    if (!CompressionMetrics::of(compression).identical_across_ranks.value_or(true) && r.status == CaseStatus::ok)
      r.fail("ranks hold different results");
    r.compression = std::move(compression);
  }
  backend->release();
  return finish();
}

}  // namespace pico
