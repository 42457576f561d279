// SPDX-License-Identifier: BSD-3-Clause
#include "backends/backend.hpp"

#include <stdexcept>

#include "backends/host_sampling.hpp"
#include "core/case_result.hpp"

namespace pico {

std::string_view method_name(const Pacing& p) {
  if (p.graph) return timing_method::kGraph;
  if (p.calls_per_sample > 1) return timing_method::kBatch;
  return p.barrier_each ? timing_method::kBarrierEach : timing_method::kBackToBack;
}

void Backend::time_calls_on_host(double* out, SampleClock clock, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  host_samples(*this, harness, out, clock, n, pacing, [] {});
}

void Backend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  (void)out, (void)n, (void)pacing, (void)harness;
  // The timing loop calls time_calls only where times_on_host() is false, which a device backend overrides with it.
  throw std::logic_error("a host-timed backend is timed through time_calls_on_host");
}

}  // namespace pico
