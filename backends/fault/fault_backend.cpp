// SPDX-License-Identifier: BSD-3-Clause
// Test-only backend: the MPI library's collective with one injected fault, so
// that tests can prove validation and failure recovery work. Selected by
// `library: fault` with algorithm corrupt, crash or hang; the configuration
// layer only accepts it when PICO_ENABLE_TEST_BACKENDS=1.
#include "backends/fault/fault_backend.hpp"

#include <csignal>
#include <stdexcept>
#include <thread>

#include "collectives/spec.hpp"

namespace pico {

FaultBackend::FaultBackend(std::string fault) : fault_(std::move(fault)) {
  if (fault_ != "corrupt" && fault_ != "crash" && fault_ != "hang")
    throw std::invalid_argument("fault backend: unknown fault '" + fault_ + "'");
}

void FaultBackend::prepare(const Case& c, MPI_Comm comm) {
  MpiBackend::prepare(c, comm);
  if (rank() != 0) return;
  if (fault_ == "crash") std::raise(SIGSEGV);
  if (fault_ == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
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
