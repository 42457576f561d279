// SPDX-License-Identifier: BSD-3-Clause
// The timing loops of the GPU backends: calls enqueued on CUDA streams (one
// per GPU the process drives) and timed there with events; the host clock
// would time the enqueue. A sample (calls_per_sample calls, or one replay of
// a CUDA graph of them) is its longest device time over those GPUs, divided
// by its calls. Calls are not checked one by one: `note` keeps the first CUDA
// error, the call keeps its own; the timed loop decides nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>

#include <mpi.h>

#include "backends/backend.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "harness/harness.hpp"

namespace pico::nccl {

using Lanes = std::span<const std::unique_ptr<Lane>>;

// Records events[index] on every lane's stream (an event and its stream share
// a device; the current device does not matter).
template <class Note>
void record_on_each(Lanes lanes, std::size_t index, Note&& note) {
  for (const auto& lane : lanes) note(cudaEventRecord(lane->events[index].get(), lane->stream.get()));
}

// The longest device time over the lanes between events[from] and events[to], in seconds.
template <class Note>
double longest_interval(Lanes lanes, std::size_t from, std::size_t to, Note&& note) {
  float longest_ms = 0;
  for (const auto& lane : lanes) {
    float ms = 0;
    note(cudaEventElapsedTime(&ms, lane->events[from].get(), lane->events[to].get()));
    longest_ms = std::max(longest_ms, ms);
  }
  return longest_ms * 1e-3;
}

template <class Note>
void wait_for_each(Lanes lanes, std::size_t index, Note&& note) {
  for (const auto& lane : lanes) note(cudaEventSynchronize(lane->events[index].get()));
}

// Latency: every rank's previous sample has finished (events synchronised)
// before the barrier, so samples start together; the sample is the device
// time from the start event to the end of its calls, per call.
template <class Sample, class Note>
void time_with_barriers(Lanes lanes, double* out, std::int64_t n, double per_call, MPI_Comm harness, Sample&& sample,
                        Note&& note) {
  for (std::int64_t i = 0; i < n; ++i) {
    harness::barrier(harness);
    record_on_each(lanes, 0, note);
    sample();
    record_on_each(lanes, 1, note);
    wait_for_each(lanes, 1, note);
    out[i] = longest_interval(lanes, 0, 1, note) * per_call;
  }
}

// Throughput: samples back to back, an event between consecutive samples;
// each stream serialises them, so each interval is one sample's device time
// (gaps the host leaves between launches included). Every events.size() - 1
// samples the host waits for the last event, to reuse the events.
template <class Sample, class Note>
void time_back_to_back(Lanes lanes, double* out, std::int64_t n, double per_call, Sample&& sample, Note&& note) {
  const auto per_wait = static_cast<std::int64_t>(lanes.front()->events.size()) - 1;
  for (std::int64_t done = 0; done < n;) {
    const std::int64_t m = std::min(per_wait, n - done);
    record_on_each(lanes, 0, note);
    for (std::int64_t j = 0; j < m; ++j) {
      sample();
      record_on_each(lanes, static_cast<std::size_t>(j + 1), note);
    }
    wait_for_each(lanes, static_cast<std::size_t>(m), note);
    for (std::int64_t j = 0; j < m; ++j)
      out[done + j] =
          longest_interval(lanes, static_cast<std::size_t>(j), static_cast<std::size_t>(j + 1), note) * per_call;
    done += m;
  }
}

// The GPU backends' time_calls: a sample is pacing.calls_per_sample calls
// enqueued by `call`, or one replay of `graph`, which holds that many calls
// captured from the single lane's stream at the first sample (the experiment
// parser refuses graph with gpus_per_process: a grouped launch over several
// devices is not captured here).
template <class Call, class Note>
void time_samples(Lanes lanes, const Pacing& pacing, double* out, std::int64_t n, MPI_Comm harness, cuda::Graph& graph,
                  Call&& call, Note&& note) {
  const double per_call = 1.0 / static_cast<double>(pacing.calls_per_sample);
  const auto calls = [&] {
    for (std::int64_t j = 0; j < pacing.calls_per_sample; ++j) call();
  };
  if (pacing.graph && !graph.captured()) {
    note(lanes.size() == 1 ? graph.capture(lanes.front()->stream.get(), calls) : cudaErrorNotSupported);
    if (!graph.captured()) return;  // the capture's error is noted: the case fails with it
  }
  const auto sample = [&] {
    if (pacing.graph) note(graph.replay(lanes.front()->stream.get()));
    else calls();
  };
  if (pacing.barrier_each) time_with_barriers(lanes, out, n, per_call, harness, sample, note);
  else time_back_to_back(lanes, out, n, per_call, sample, note);
}

}  // namespace pico::nccl
