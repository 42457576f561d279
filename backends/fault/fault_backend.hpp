// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>

#include "backends/mpi/mpi_backend.hpp"

namespace pico {

class FaultBackend : public MpiBackend {
 public:
  explicit FaultBackend(std::string fault);
  void prepare(const Case& c, MPI_Comm comm) override;
  std::uint64_t validate() override;
  void run_once() override;
  void time_calls_on_host(double* out, SampleClock clock, std::int64_t n, Pacing pacing, MPI_Comm harness) override;

 private:
  std::string fault_;
};

}  // namespace pico
