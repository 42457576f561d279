// SPDX-License-Identifier: BSD-3-Clause
/* A small MPI application for pico's application-experiment tests
 * (docs/applications.md): an unmodified program as far as pico is concerned,
 * it calls MPI_Allreduce and MPI_Bcast in a loop, checks the results, and
 * prints its own figure of merit the way real codes do ("Loop time of S").
 *
 *   mpirun -np N pico-collective-app [ALLREDUCE_BYTES [BCAST_BYTES [ITERATIONS]]]
 *
 * PICO_TEST_APP_EXIT=K makes rank 0 exit with K after its loop (a failing run). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long allreduce_bytes = argc > 1 ? atol(argv[1]) : 65536;
  const long bcast_bytes = argc > 2 ? atol(argv[2]) : 1024;
  const int iterations = argc > 3 ? atoi(argv[3]) : 20;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = (int)(allreduce_bytes / (long)sizeof(int));
  const int m = (int)bcast_bytes;
  int* in = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  int* out = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  char* b = malloc((size_t)(m > 0 ? m : 1));
  long wrong = 0;
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i) in[i] = rank + i % 7 + it;
    MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i) wrong += out[i] != size * (i % 7 + it) + size * (size - 1) / 2;
    for (int i = 0; i < m; ++i) b[i] = rank == 0 ? (char)(i + it) : 0;
    MPI_Bcast(b, m, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (int i = 0; i < m; ++i) wrong += b[i] != (char)(i + it);
  }
  const double elapsed = MPI_Wtime() - start;
  long wrong_total = 0;
  MPI_Reduce(&wrong, &wrong_total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("Loop time of %.6f on %d procs for %d steps\n", elapsed, size, iterations);
    printf("%s\n", wrong_total == 0 ? "results: correct" : "results: WRONG");
  }
  const char* fail = getenv("PICO_TEST_APP_EXIT");
  if (rank == 0 && fail != NULL && atoi(fail) != 0) {
    fflush(stdout);
    fprintf(stderr, "collective_app: exiting with %d as PICO_TEST_APP_EXIT asks\n", atoi(fail));
    exit(atoi(fail));
  }
  free(in);
  free(out);
  free(b);
  MPI_Finalize();
  return wrong_total == 0 ? 0 : 1;
}
