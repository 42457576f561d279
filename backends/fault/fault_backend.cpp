// SPDX-License-Identifier: BSD-3-Clause
// Test-only backend: the MPI library's collective with one injected fault, so
// that tests can prove validation, failure recovery and straggler naming
// work. Selected by `library: fault` with algorithm corrupt, crash, hang,
// late (the last rank enters each sample kDelay late) or slow (the last rank
// leaves each call kDelay late after entering on time); the configuration
// layer only accepts it when PICO_ENABLE_TEST_BACKENDS=1.
#include "backends/fault/fault_backend.hpp"

#include <csignal>
#include <stdexcept>
#include <thread>

#include "backends/host_sampling.hpp"
#include "collectives/spec.hpp"

namespace pico {
namespace {

// Far above a small call's time on a test machine, and above a loaded
// machine's descheduling (2 ms was not: a test under load saw 2-5 ms).
constexpr auto kDelay = std::chrono::milliseconds(10);

}  // namespace

FaultBackend::FaultBackend(std::string fault) : fault_(std::move(fault)) {
  if (fault_ != "corrupt" && fault_ != "crash" && fault_ != "hang" && fault_ != "late" && fault_ != "slow")
    throw std::invalid_argument("fault backend: unknown fault '" + fault_ + "'");
}

void FaultBackend::prepare(const Case& c, MPI_Comm comm) {
  MpiBackend::prepare(c, comm);
  if (rank() != 0) return;
  if (fault_ == "crash") std::raise(SIGSEGV);
  if (fault_ == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

// The delay lies inside the rank's timed interval, after the collective: the
// others leave on time.
void FaultBackend::run_once() {
  MpiBackend::run_once();
  if (fault_ == "slow" && rank() == current_case().np - 1) std::this_thread::sleep_for(kDelay);
}

// The delay lies before the rank's entry clock read: it arrives late.
void FaultBackend::time_calls_on_host(double* out, SampleClock clock, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  const bool late = fault_ == "late" && rank() == current_case().np - 1;
  host_samples(*this, harness, out, clock, n, pacing, [late] {
    if (late) std::this_thread::sleep_for(kDelay);
  });
}

// Flips a bit of the first result element on the rank whose result is checked.
std::uint64_t FaultBackend::validate() {
  fill_inputs();
  run_once();
  const Case& c = current_case();
  const bool result_at_root = spec_for(c.collective).root == RootRole::destination;
  const int victim = result_at_root ? c.root : c.np - 1;
  auto result = result_bytes();
  if (fault_ == "corrupt" && rank() == victim && !result.empty()) result[0] ^= std::byte{0x01};
  return count_mismatches();
}

}  // namespace pico
