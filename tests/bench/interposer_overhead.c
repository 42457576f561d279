// SPDX-License-Identifier: BSD-3-Clause
/* What the Open MPI interposer's trampoline adds to one call
 * (docs/benchmarks.md#open-mpi-interposer-overhead): the same trampoline
 * (instrumentation/ompi_interposer/trampoline.h) in front of an empty
 * function, against calling that function directly through a pointer, in
 * alternating rounds so that drift on a loaded machine hits both alike.
 *
 *   pico-interposer-bench [CALLS_PER_ROUND [ROUNDS]]
 * prints per round: direct_ns trampoline_ns added_ns, then the median added. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "instrumentation/ompi_interposer/interposer_abi.h"
#include "instrumentation/ompi_interposer/trampoline.h"

__attribute__((visibility("hidden"))) struct pico_interposer_slot bench_slots[1];
__attribute__((visibility("hidden"))) uint64_t bench_sequence;
PICO_TRAMPOLINE(bench_slots, bench_sequence, 0, pico_bench_trampoline)
int pico_bench_trampoline(int x);

/* Stands for an Open MPI algorithm: a real call the compiler cannot fold away. */
__attribute__((noinline)) static int target(int x) {
  __asm__ volatile("" : "+r"(x));
  return x + 1;
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double ns_per_call(int (*volatile f)(int), long calls) {
  int x = 0;
  const double start = seconds();
  for (long i = 0; i < calls; ++i) x = f(x);
  const double elapsed = seconds() - start;
  if (x != (int)calls) abort();  /* every call ran */
  return elapsed * 1e9 / (double)calls;
}

static int compare_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  const long calls = argc > 1 ? atol(argv[1]) : 50000000L;
  const int rounds = argc > 2 ? atoi(argv[2]) : 7;
  if (calls <= 0 || rounds <= 0 || rounds > 100) {
    fprintf(stderr, "usage: pico-interposer-bench [CALLS_PER_ROUND [ROUNDS<=100]]\n");
    return 2;
  }
  bench_slots[0].real = (void*)target;
  double added[100];
  printf("round direct_ns trampoline_ns added_ns\n");
  for (int r = 0; r < rounds; ++r) {
    const double direct = ns_per_call(target, calls);
    const double through = ns_per_call(pico_bench_trampoline, calls);
    added[r] = through - direct;
    printf("%5d %9.3f %13.3f %8.3f\n", r, direct, through, added[r]);
  }
  if (bench_slots[0].calls != (uint64_t)calls * (uint64_t)rounds || bench_slots[0].first_call != 1) {
    fprintf(stderr, "the trampoline miscounted: %llu calls\n", (unsigned long long)bench_slots[0].calls);
    return 1;
  }
  qsort(added, (size_t)rounds, sizeof(double), compare_double);
  printf("median added per call: %.3f ns\n", added[rounds / 2]);
  return 0;
}
