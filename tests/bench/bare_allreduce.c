// SPDX-License-Identifier: BSD-3-Clause
/* A bare MPI_Allreduce timing loop: the yardstick pico's own median is
 * compared against (docs/benchmarks.md). Same methodology as pico's latency
 * mode: barrier before each call (untimed), slowest rank per iteration,
 * median over iterations.
 *
 *   mpirun -np 2 pico-bare-allreduce COUNT ITERATIONS
 * prints: count=<n> bytes=<b> iterations=<i> median_us=<t>
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int compare_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: pico-bare-allreduce COUNT ITERATIONS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int count = atoi(argv[1]), iterations = atoi(argv[2]), rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm harness;
  MPI_Comm_dup(MPI_COMM_WORLD, &harness);
  float* send = calloc((size_t)count + 1, sizeof(float));
  float* recv = calloc((size_t)count + 1, sizeof(float));
  double* samples = calloc((size_t)iterations, sizeof(double));
  for (int i = 0; i < 10; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < iterations; ++i) {
    MPI_Barrier(harness);
    double start = MPI_Wtime();
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    samples[i] = MPI_Wtime() - start;
  }
  MPI_Allreduce(MPI_IN_PLACE, samples, iterations, MPI_DOUBLE, MPI_MAX, harness);
  if (rank == 0) {
    qsort(samples, (size_t)iterations, sizeof(double), compare_double);
    double median = iterations % 2 ? samples[iterations / 2]
                                   : 0.5 * (samples[iterations / 2 - 1] + samples[iterations / 2]);
    printf("count=%d bytes=%zu iterations=%d median_us=%.3f\n", count, (size_t)count * sizeof(float), iterations,
           median * 1e6);
  }
  free(send);
  free(recv);
  free(samples);
  MPI_Comm_free(&harness);
  MPI_Finalize();
  return 0;
}
