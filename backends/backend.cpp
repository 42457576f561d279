// SPDX-License-Identifier: BSD-3-Clause
#include "backends/backend.hpp"

#include "core/case_result.hpp"
#include "harness/harness.hpp"

namespace pico {
namespace {

// The hot loop: nothing but the calls and two clock reads per sample (and,
// with barrier_each, an untimed barrier on the harness communicator before each).
template <bool kBarrierBeforeSample>
void host_timed_calls(Backend& backend, MPI_Comm harness, double* out, std::int64_t n, std::int64_t calls) {
  const double per_call = 1.0 / static_cast<double>(calls);
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (kBarrierBeforeSample) harness::barrier(harness);
    const double start = MPI_Wtime();
    for (std::int64_t j = 0; j < calls; ++j) backend.run_once();
    out[i] = (MPI_Wtime() - start) * per_call;
  }
}

}  // namespace

std::string_view method_name(const Pacing& p) {
  if (p.graph) return timing_method::kGraph;
  if (p.calls_per_sample > 1) return timing_method::kBatch;
  return p.barrier_each ? timing_method::kBarrierEach : timing_method::kBackToBack;
}

void Backend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  if (pacing.barrier_each)
    host_timed_calls<true>(*this, harness, out, n, pacing.calls_per_sample);
  else
    host_timed_calls<false>(*this, harness, out, n, pacing.calls_per_sample);
}

}  // namespace pico
