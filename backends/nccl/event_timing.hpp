// SPDX-License-Identifier: BSD-3-Clause
// The two timing loops of the GPU backends: calls enqueued on CUDA streams
// (one per GPU the process drives) and timed there with events; the host
// clock would time the enqueue. A call's sample is its longest device time
// over those GPUs. Calls are not checked one by one: `note` keeps the first
// CUDA error, the call keeps its own; the timed loop decides nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>

#include <mpi.h>

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

// Latency: every rank's previous call has finished (events synchronised)
// before the barrier, so calls start together; the sample is the device time
// from the start event to the end of the call.
template <class Call, class Note>
void time_with_barriers(Lanes lanes, double* out, std::int64_t n, MPI_Comm harness, Call&& call, Note&& note) {
  for (std::int64_t i = 0; i < n; ++i) {
    harness::barrier(harness);
    record_on_each(lanes, 0, note);
    call();
    record_on_each(lanes, 1, note);
    wait_for_each(lanes, 1, note);
    out[i] = longest_interval(lanes, 0, 1, note);
  }
}

// Throughput: calls back to back, an event between consecutive calls; each
// stream serialises them, so each interval is one call's device time (gaps the
// host leaves between launches included). Every events.size() - 1 calls the
// host waits for the last event, to reuse the events.
template <class Call, class Note>
void time_back_to_back(Lanes lanes, double* out, std::int64_t n, Call&& call, Note&& note) {
  const auto per_batch = static_cast<std::int64_t>(lanes.front()->events.size()) - 1;
  for (std::int64_t done = 0; done < n;) {
    const std::int64_t m = std::min(per_batch, n - done);
    record_on_each(lanes, 0, note);
    for (std::int64_t j = 0; j < m; ++j) {
      call();
      record_on_each(lanes, static_cast<std::size_t>(j + 1), note);
    }
    wait_for_each(lanes, static_cast<std::size_t>(m), note);
    for (std::int64_t j = 0; j < m; ++j)
      out[done + j] = longest_interval(lanes, static_cast<std::size_t>(j), static_cast<std::size_t>(j + 1), note);
    done += m;
  }
}

}  // namespace pico::nccl
