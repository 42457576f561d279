// SPDX-License-Identifier: BSD-3-Clause
// The hot loop of a host-timed backend (Backend::time_calls_on_host): nothing
// but the calls and two clock reads per sample (and, with barrier_each, an
// untimed barrier on the harness communicator before each). No allocation:
// every array is the timing loop's, sized before the first sample (none for
// per-rank times with timing.rank_timing off).
#pragma once

#include <cstdint>

#include "backends/backend.hpp"
#include "harness/harness.hpp"

namespace pico {

// before_entry runs between the barrier and the entry clock read: nothing in
// the library's own backends; the fault backend's injected late arrival.
template <class BeforeEntry>
void host_samples(Backend& backend, MPI_Comm harness, double* out, SampleClock clock, std::int64_t n, Pacing pacing,
                  BeforeEntry&& before_entry) {
  const std::int64_t calls = pacing.calls_per_sample;
  const double per_call = 1.0 / static_cast<double>(calls);
  const bool barrier_each = pacing.barrier_each;
  // timing.rank_timing off: no arrays. The same test every sample, after the
  // clock read, so it predicts perfectly and costs the timed calls nothing.
  const bool keep = clock.entry_s != nullptr;
  for (std::int64_t i = 0; i < n; ++i) {
    if (barrier_each) harness::barrier(harness);
    before_entry();
    const double entry = MPI_Wtime();
    for (std::int64_t j = 0; j < calls; ++j) backend.run_once();
    const double exit = MPI_Wtime();
    out[i] = (exit - entry) * per_call;
    if (keep) {
      clock.entry_s[i] = entry;
      clock.exit_s[i] = exit;
    }
  }
}

}  // namespace pico
