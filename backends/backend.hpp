// SPDX-License-Identifier: BSD-3-Clause
// Where a case's call goes. The worker's timing loop drives any backend
// through this interface (prepare, run or time calls, validate, release; and
// optional hooks for a split call, phases, deferred errors, the device, the library's
// reported selection and compression metrics) and knows nothing else about it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"
#include "core/case.hpp"
#include "instrumentation/phase_recorder.hpp"

namespace pico {

// How the timing loop spaces and groups calls (docs/methodology.md#calls-per-sample).
// Latency mode puts an (untimed) barrier before each sample; throughput mode
// launches back to back. A sample holds calls_per_sample calls, timed together
// and divided (nccl-tests' way); with graph they are captured once in a CUDA
// graph and a sample is one replay of it.
struct Pacing {
  bool barrier_each = true;
  std::int64_t calls_per_sample = 1;
  bool graph = false;
};
// The report's timing_method for p (core/case_result.hpp).
std::string_view method_name(const Pacing& p);

// Where a host-timed sample's entry and exit go: entry_s[i] and exit_s[i]
// beside out[i], this rank's MPI_Wtime before its first call and after its last.
// Both null with timing.rank_timing off: the times are read for out[i], not kept.
struct SampleClock {
  double* entry_s = nullptr;
  double* exit_s = nullptr;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Allocates buffers and binds the call for `c` on `comm`. Collective over comm. Outside timing.
  virtual void prepare(const Case& c, MPI_Comm comm) = 0;
  // One call of the collective: the only thing timed.
  virtual void run_once() = 0;
  // Takes n samples, each the seconds per call of pacing.calls_per_sample
  // calls, into out[0..n), and each sample's entry and exit on this rank's
  // host clock (MPI_Wtime) into clock (per-rank timing,
  // docs/methodology.md#per-rank-timing). The default reads the host clock
  // around the calls (backends/host_sampling.hpp).
  virtual void time_calls_on_host(double* out, SampleClock clock, std::int64_t n, Pacing pacing, MPI_Comm harness);
  // False for a backend whose calls return before the work is done (NCCL
  // enqueues on a CUDA stream): it times on the device, through time_calls,
  // and has no per-rank entry and exit. Only backends whose descriptor says
  // cuda_graphs are given pacing.graph.
  virtual bool times_on_host() const { return true; }
  virtual void time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness);
  // The call in its two halves, for the overlap measurement (worker/overlap.hpp):
  // start_call returns once the operation is started, wait_call completes it.
  // Only where splits_call() (the mpi backend's call: nonblocking).
  virtual bool splits_call() const { return false; }
  virtual void start_call() {}
  virtual void wait_call() {}
  // Fills the closed-form inputs, runs once, returns this rank's mismatching element count.
  virtual std::uint64_t validate() = 0;
  // Frees what prepare allocated.
  virtual void release() = 0;
  // Runs `calls` instrumented calls, each after before_each(), recording the
  // phases the algorithm marks. False when the backend has no phases (the
  // library's own collectives are opaque).
  virtual bool record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) {
    (void)calls, (void)recorder, (void)before_each;
    return false;
  }
  // True when the report should carry `phases` even without `instrumentation: {phases: true}`
  // (compressed allreduce: its time breakdown is part of its answer).
  virtual bool always_records_phases() const { return false; }
  // An error a timed call met; "" if none. Timed calls are not checked one by
  // one (the loop decides nothing); the worker asks on every rank afterwards.
  virtual std::string deferred_error() const { return ""; }
  // The report's `device` object (GPU, NCCL version); null for host backends.
  virtual nlohmann::json device() const { return nullptr; }
  // What the library reports it ran, where it says (NCCL's tuning log), for
  // the report's selection.reported; null where it does not.
  virtual nlohmann::json reported_selection() const { return nullptr; }
  // The report's `compression` object, computed outside timing; null for dense backends.
  virtual nlohmann::json compression(MPI_Comm harness) {
    (void)harness;
    return nullptr;
  }
};

// make_backend, the factory over every kind, is the worker's (src/worker/backend_registry.hpp):
// it registers the compressed backends too, which sit above this layer.

}  // namespace pico
