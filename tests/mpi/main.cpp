// Catch2 under mpirun: every rank runs the same test cases; assertions are
// made on values every rank agrees on (allreduced), so no rank waits alone.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Catch::Session session;
  // Only rank 0 reports; the others still run every assertion.
  if (rank != 0) session.configData().outputFilename = "%debug";
  int result = session.applyCommandLine(argc, argv);
  if (result == 0) result = session.run();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
