// Helpers the MPI test files share.
#pragma once

#include <cstdint>

#include <mpi.h>

namespace pico::test {

// The sum over MPI_COMM_WORLD, the same on every rank, so assertions on it agree.
inline std::uint64_t sum_over_ranks(std::uint64_t local) {
  unsigned long long in = local, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

}  // namespace pico::test
