// SPDX-License-Identifier: BSD-3-Clause
#include "backends/backend.hpp"

#include "harness/harness.hpp"

namespace pico {
namespace {

// The hot loop: nothing but the call and two clock reads (and, with
// barrier_each, an untimed barrier on the harness communicator before each call).
template <bool kBarrierBeforeCall>
void host_timed_calls(Backend& backend, MPI_Comm harness, double* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (kBarrierBeforeCall) harness::barrier(harness);
    const double start = MPI_Wtime();
    backend.run_once();
    out[i] = MPI_Wtime() - start;
  }
}

}  // namespace

void Backend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  if (pacing == Pacing::barrier_each)
    host_timed_calls<true>(*this, harness, out, n);
  else
    host_timed_calls<false>(*this, harness, out, n);
}

}  // namespace pico
