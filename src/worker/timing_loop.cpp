// SPDX-License-Identifier: BSD-3-Clause
#include "worker/timing_loop.hpp"

#include <algorithm>
#include <cmath>

#include "harness/harness.hpp"
#include "stats/stats.hpp"

namespace pico {
namespace {

// Every rank must take the same decision, so it is computed from data that
// the batch's MAX-allreduce made identical everywhere.
bool precise_enough(const std::vector<double>& samples, std::int64_t n, double target, std::vector<double>& scratch) {
  scratch.assign(samples.begin(), samples.begin() + n);
  std::sort(scratch.begin(), scratch.end());
  const MedianCi ci = median_ci95_sorted(scratch);
  return ci.median > 0 && relative_ci_halfwidth(ci) < target;
}

}  // namespace

Pacing pacing_of(const TimingSpec& spec) {
  return Pacing{.barrier_each = spec.mode == TimingMode::latency,
                .calls_per_sample = std::max<std::int64_t>(1, spec.calls_per_sample),
                .graph = spec.graph};
}

TimedSamples run_timed(Backend& backend, const TimingSpec& spec, MPI_Comm harness) {
  const Pacing pacing = pacing_of(spec);
  const auto max_n = spec.max_iterations;
  // One slot past the last sample carries the loop's elapsed time through the
  // batch allreduce; the warm-up's times land here too, and may be more
  // (`bench -n 2` with 5 warm-ups wrote past the end and aborted the worker).
  const auto slots = static_cast<std::size_t>(std::max<std::int64_t>(max_n + 1, spec.warmup));
  std::vector<double> samples(slots);
  // Each rank's own entry and exit, sized before the first sample: the hot
  // loop allocates nothing. Without per-rank timing there are none to keep,
  // and the loop is given no arrays (SampleClock's null: nothing stored).
  const bool on_host = backend.times_on_host();
  const bool per_rank = on_host && spec.rank_timing;
  std::vector<double> entry(per_rank ? slots : 0), exit(per_rank ? slots : 0);
  auto batch = [&](double* out, std::int64_t n) {
    if (!on_host) return backend.time_calls(out, n, pacing, harness);
    const auto at = out - samples.data();
    const SampleClock clock = per_rank ? SampleClock{entry.data() + at, exit.data() + at} : SampleClock{};
    backend.time_calls_on_host(out, clock, n, pacing, harness);
  };
  std::vector<double> scratch;
  scratch.reserve(static_cast<std::size_t>(max_n));

  batch(samples.data(), spec.warmup);
  harness::barrier(harness);

  TimedSamples result;
  std::int64_t done = 0;
  std::int64_t next = std::min(spec.min_iterations, max_n);
  const double loop_start = MPI_Wtime();
  for (;;) {
    batch(samples.data() + done, next);
    done += next;
    samples[done] = MPI_Wtime() - loop_start;
    harness::allreduce(harness, samples.data() + done - next, static_cast<int>(next + 1), harness::Reduction::max);
    const double elapsed = samples[done];

    if (done >= spec.min_iterations) {
      if (done >= spec.precise_from && precise_enough(samples, done, spec.target_ci, scratch)) {
        result.stop_reason = "target_ci";
        break;
      }
      if (elapsed >= spec.time_budget_s) {
        result.stop_reason = "time_budget";
        break;
      }
      if (done >= max_n) {
        result.stop_reason = "max_iterations";
        break;
      }
    }
    // Double the sample, but do not overshoot the budget by more than one iteration.
    const double per_iteration = elapsed / static_cast<double>(done);
    const double affordable = per_iteration > 0 ? (spec.time_budget_s - elapsed) / per_iteration : 1e18;
    next = std::min<std::int64_t>(done, static_cast<std::int64_t>(std::max(1.0, std::ceil(affordable))));
    next = std::clamp<std::int64_t>(next, 1, max_n - done);
  }
  samples.resize(static_cast<std::size_t>(done));
  result.samples_s = std::move(samples);
  if (per_rank) {
    entry.resize(static_cast<std::size_t>(done));
    exit.resize(static_cast<std::size_t>(done));
    result.entry_s = std::move(entry);
    result.exit_s = std::move(exit);
  }
  result.calls = (spec.warmup + done) * pacing.calls_per_sample;
  return result;
}

}  // namespace pico
