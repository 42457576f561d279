// SPDX-License-Identifier: BSD-3-Clause
// Catch2 under mpirun: every rank runs the same test cases; assertions are
// made on values every rank agrees on (allreduced), so no rank waits alone.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <mpi.h>

#include <optional>

#include "harness/mpi_handles.hpp"
#include "mpi_test_util.hpp"

namespace {
std::optional<pico::DupComm> g_harness, g_measured;
}  // namespace

MPI_Comm pico::test::harness() { return g_harness->get(); }
MPI_Comm pico::test::measured() { return g_measured->get(); }

int main(int argc, char** argv) {
  pico::MpiSession mpi(&argc, &argv);
  g_harness.emplace(MPI_COMM_WORLD);
  g_measured.emplace(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Catch::Session session;
  // Only rank 0 reports; the others still run every assertion.
  if (rank != 0) session.configData().outputFilename = "%debug";
  int result = session.applyCommandLine(argc, argv);
  if (result == 0) result = session.run();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, pico::test::harness());
  g_measured.reset();  // freed before MPI_Finalize (the session's destructor)
  g_harness.reset();
  return worst;
}
