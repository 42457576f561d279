// SPDX-License-Identifier: BSD-3-Clause
/* An LD_PRELOAD library for application experiments (docs/applications.md):
 * preloaded into an unmodified MPI program beside the Open MPI interposer
 * (libpico-ompi-interposer.so), it counts per collective, communicator size
 * and message size which of Open MPI's algorithm functions ran, and how long
 * the program spent in each, and writes one JSON file per rank at
 * MPI_Finalize into $PICO_APP_COUNTS_DIR.
 *
 * Each wrapped collective (MPI_<Coll> and PMPI_<Coll>: a C program calls the
 * first, Open MPI's Fortran bindings the second) zeroes the interposer's
 * counters, calls the library's PMPI_<Coll> (found with RTLD_NEXT), and
 * files the functions entered, in the order of their first call, under the
 * call's (collective, communicator size, bytes). Without the interposer (not
 * Open MPI, or not x86-64) it still counts calls and time per size. Bytes are
 * pico's case bytes, one rank's block (collectives/spec.hpp): count x type
 * size of the send side, the receive side for an in-place call; for
 * MPI_Reduce_scatter (reduce_scatterv) the whole vector. The table is
 * fixed in size, so a call allocates nothing; keys past it are counted as
 * overflow. Cost per call: one reset of the slots (24 bytes each), one scan
 * of them and two clock reads, well under a microsecond. Single-threaded use,
 * as the interposer's.
 *
 * With $PICO_APP_TRACE_DIR set it also writes each rank's calls on
 * MPI_COMM_WORLD (or a communicator congruent to it) in liballprof's format
 * (pmpi-trace-rank-<r>.txt: `MPI_Func:tstart:args:tend`, microseconds of
 * MPI_Wtime), for `pico replay` to predict the same run under a profile
 * (docs/applications.md#predicted-beside-realized). Point-to-point calls and
 * collectives on other communicators are not written: their time falls into
 * the compute between the calls written, as it would stay under any profile. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "instrumentation/ompi_interposer/interposer_abi.h"

enum { kMaxEntered = 8, kTableSize = 4096 };

enum collective {
  c_allreduce,
  c_bcast,
  c_reduce,
  c_allgather,
  c_gather,
  c_scatter,
  c_alltoall,
  c_alltoallv,
  c_reduce_scatter,
  c_reduce_scatterv,
  c_scan,
  c_exscan,
  c_barrier,
  c_allgatherv,
  c_gatherv,
  c_scatterv,
  c_count
};
/* pico's names (core/types.cpp) where pico has the collective; the v-forms it has no case of keep MPI's. */
static const char* const kCollectiveNames[c_count] = {"allreduce",      "bcast",           "reduce",   "allgather",
                                                      "gather",         "scatter",         "alltoall", "alltoallv",
                                                      "reduce_scatter", "reduce_scatterv", "scan",     "exscan",
                                                      "barrier",        "allgatherv",      "gatherv",  "scatterv"};

struct entry {
  uint8_t used, collective, entered_count;
  int32_t comm_size;
  uint64_t bytes;
  uint16_t entered[kMaxEntered];
  uint64_t calls;
  double seconds;
};

static struct entry table[kTableSize];
static uint64_t overflow_calls;
static const struct pico_interposer_table* interposer;
static double init_end_s, finalize_start_s;
static int nested;  // a wrapped call made inside another (a library's own use of PMPI) is not counted twice
static FILE* trace;  // liballprof-format lines of this rank, where PICO_APP_TRACE_DIR asks for them
static uint64_t untraced_calls;  // collectives on communicators the trace cannot name

static int interposer_looked_up;

static void find_interposer(void) {
  interposer_looked_up = 1;
  typedef const struct pico_interposer_table* (*table_fn)(void);
  table_fn fn = (table_fn)dlsym(RTLD_DEFAULT, "pico_interposer");
  const struct pico_interposer_table* t = fn != NULL ? fn() : NULL;
  if (t != NULL && t->abi_version == PICO_INTERPOSER_ABI_VERSION) {
    t->resolve_loaded(); /* after MPI_Init: Open MPI's components are open now */
    interposer = t;
  }
}

static void reset_slots(void) {
  if (interposer == NULL) return;
  for (uint32_t i = 0; i < interposer->count; ++i) interposer->slots[i].calls = interposer->slots[i].first_call = 0;
  *interposer->sequence = 0;
}

/* The functions entered since the reset, the kMaxEntered first by their first call, in that order. */
static uint8_t entered_functions(uint16_t* out) {
  uint8_t n = 0;
  if (interposer == NULL) return 0;
  const struct pico_interposer_slot* slots = interposer->slots;
  for (uint32_t i = 0; i < interposer->count; ++i) {
    if (slots[i].calls == 0) continue;
    if (n == kMaxEntered && slots[out[n - 1]].first_call < slots[i].first_call) continue;
    uint8_t k = n < kMaxEntered ? n++ : (uint8_t)(n - 1);
    for (; k > 0 && slots[out[k - 1]].first_call > slots[i].first_call; --k) out[k] = out[k - 1];
    out[k] = (uint16_t)i;
  }
  return n;
}

static void record(enum collective c, MPI_Comm comm, uint64_t bytes, double seconds) {
  struct entry key;
  memset(&key, 0, sizeof key); /* padding too: keys are compared as bytes */
  if (!interposer_looked_up) find_interposer(); /* MPI_Init reached the library some other way */
  key.used = 1;
  key.collective = (uint8_t)c;
  PMPI_Comm_size(comm, &key.comm_size);
  key.bytes = bytes;
  key.entered_count = entered_functions(key.entered);
  uint64_t h = 1469598103934665603ull;
  const unsigned char* p = (const unsigned char*)&key;
  for (size_t i = 0; i < offsetof(struct entry, calls); ++i) h = (h ^ p[i]) * 1099511628211ull;
  for (size_t probe = 0; probe < kTableSize; ++probe) {
    struct entry* e = &table[(h + probe) % kTableSize];
    if (!e->used) {
      *e = key;
    } else if (memcmp(e, &key, offsetof(struct entry, calls)) != 0) {
      continue;
    }
    e->calls += 1;
    e->seconds += seconds;
    return;
  }
  ++overflow_calls;
}

static uint64_t type_bytes(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  PMPI_Type_size(type, &size);
  return (uint64_t)count * (uint64_t)size;
}

/* ---- liballprof-format trace (simulation/liballprof.hpp reads it) ---- */

static int world_rank, world_size;  // what every trace line's communicator field names

static void open_trace(double init_start_s) {
  const char* dir = getenv("PICO_APP_TRACE_DIR");
  if (dir == NULL || *dir == '\0') return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  char path[4096];
  snprintf(path, sizeof path, "%s/pmpi-trace-rank-%d.txt", dir, world_rank);
  trace = fopen(path, "w");
  if (trace == NULL) {
    fprintf(stderr, "pico app counter: cannot write %s: %s\n", path, strerror(errno));
    return;
  }
  fprintf(trace, "# pico app counter, liballprof's line format\n# start: %.0f\n\n", init_start_s * 1e6);
}

/* Whether the trace can name `comm`: the world, or one with the world's ranks in its order. */
static int traceable(MPI_Comm comm) {
  int result = MPI_UNEQUAL;
  if (comm == MPI_COMM_WORLD) return 1;
  PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
  if (result == MPI_IDENT || result == MPI_CONGRUENT) return 1;
  ++untraced_calls;
  return 0;
}

static void put_type(MPI_Datatype t) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_size(t, &size);
  PMPI_Type_get_extent(t, &lb, &extent);
  fprintf(trace, ":%d,%d,%ld", 0, size, (long)extent);
}

static void put_comm(void) { fprintf(trace, ":%lu,%d,%d", (unsigned long)(uintptr_t)MPI_COMM_WORLD, world_rank, world_size); }

#define TRACE_ON(comm) (trace != NULL && traceable(comm))
#define TRACE_BEGIN(name, start) fprintf(trace, "%s:%.0f", name, (start) * 1e6)
#define TRACE_END(end) fprintf(trace, ":%.0f\n", (end) * 1e6)
#define PTR(p) ((unsigned long)(uintptr_t)(p))

/* The real function of the library: the next definition after this one. */
#define REAL(name, ...) \
  static int (*real)(__VA_ARGS__);  \
  if (real == NULL) real = (int (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

/* Times and counts one call; `call` is the expression calling `real`;
 * `traced` writes its trace line (start and end in scope), or is empty. */
#define COUNTED_TRACED(coll, comm, bytes, call, traced) \
  do {                                                  \
    if (nested) return call;                            \
    nested = 1;                                         \
    reset_slots();                                      \
    const double start = PMPI_Wtime();                  \
    const int rc = call;                                \
    const double end = PMPI_Wtime();                    \
    record(coll, comm, bytes, end - start);             \
    if (TRACE_ON(comm)) {                               \
      traced;                                           \
    }                                                   \
    nested = 0;                                         \
    return rc;                                          \
  } while (0)
#define COUNTED(coll, comm, bytes, call) COUNTED_TRACED(coll, comm, bytes, call, ++untraced_calls)

/* MPI_<Coll> and PMPI_<Coll> both: the definitions are the same function. */
#define WRAP(Name, params)                          \
  int P##Name params __attribute__((alias(#Name))); \
  int Name params

WRAP(MPI_Allreduce, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)) {
  REAL(PMPI_Allreduce, const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  COUNTED_TRACED(c_allreduce, comm, type_bytes(n, t), real(s, r, n, t, op, comm),
                 (TRACE_BEGIN("MPI_Allreduce", start), fprintf(trace, ":%lu:%lu:%d", PTR(s), PTR(r), n), put_type(t),
                  fprintf(trace, ":%lu", PTR(op)), put_comm(), TRACE_END(end)));
}
WRAP(MPI_Bcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm comm)) {
  REAL(PMPI_Bcast, void*, int, MPI_Datatype, int, MPI_Comm);
  COUNTED_TRACED(c_bcast, comm, type_bytes(n, t), real(b, n, t, root, comm),
                 (TRACE_BEGIN("MPI_Bcast", start), fprintf(trace, ":%lu:%d", PTR(b), n), put_type(t),
                  fprintf(trace, ":%d", root), put_comm(), TRACE_END(end)));
}
WRAP(MPI_Reduce, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)) {
  REAL(PMPI_Reduce, const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
  COUNTED_TRACED(c_reduce, comm, type_bytes(n, t), real(s, r, n, t, op, root, comm),
                 (TRACE_BEGIN("MPI_Reduce", start), fprintf(trace, ":%lu:%lu:%d", PTR(s), PTR(r), n), put_type(t),
                  fprintf(trace, ":%lu:%d", PTR(op), root), put_comm(), TRACE_END(end)));
}
WRAP(MPI_Scan, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)) {
  REAL(PMPI_Scan, const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  COUNTED(c_scan, comm, type_bytes(n, t), real(s, r, n, t, op, comm));
}
WRAP(MPI_Exscan, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)) {
  REAL(PMPI_Exscan, const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  COUNTED(c_exscan, comm, type_bytes(n, t), real(s, r, n, t, op, comm));
}
WRAP(MPI_Reduce_scatter_block, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)) {
  REAL(PMPI_Reduce_scatter_block, const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  COUNTED(c_reduce_scatter, comm, type_bytes(n, t), real(s, r, n, t, op, comm));
}
WRAP(MPI_Reduce_scatter, (const void* s, void* r, const int* n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)) {
  REAL(PMPI_Reduce_scatter, const void*, void*, const int*, MPI_Datatype, MPI_Op, MPI_Comm);
  /* pico's reduce_scatterv bytes are the whole vector (collectives/reduce_scatterv.cpp): every rank's count. */
  int size = 0, type_size = 0;
  PMPI_Comm_size(comm, &size);
  uint64_t elements = 0;
  for (int q = 0; q < size; ++q) elements += n[q] > 0 ? (uint64_t)n[q] : 0;
  if (t != MPI_DATATYPE_NULL) PMPI_Type_size(t, &type_size);
  COUNTED(c_reduce_scatterv, comm, elements * (uint64_t)type_size, real(s, r, n, t, op, comm));
}
/* The block-moving collectives: the send block, the receive block when in place. */
#define BLOCK(s, sn, st, rn, rt) ((s) == MPI_IN_PLACE ? type_bytes(rn, rt) : type_bytes(sn, st))
WRAP(MPI_Allgather, (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm comm)) {
  REAL(PMPI_Allgather, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
  COUNTED_TRACED(c_allgather, comm, BLOCK(s, sn, st, rn, rt), real(s, sn, st, r, rn, rt, comm),
                 (TRACE_BEGIN("MPI_Allgather", start), fprintf(trace, ":%lu:%d", PTR(s), sn), put_type(st),
                  fprintf(trace, ":%lu:%d", PTR(r), rn), put_type(rt), put_comm(), TRACE_END(end)));
}
WRAP(MPI_Alltoall, (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm comm)) {
  REAL(PMPI_Alltoall, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
  COUNTED_TRACED(c_alltoall, comm, BLOCK(s, sn, st, rn, rt), real(s, sn, st, r, rn, rt, comm),
                 (TRACE_BEGIN("MPI_Alltoall", start), fprintf(trace, ":%lu:%d", PTR(s), sn), put_type(st),
                  fprintf(trace, ":%lu:%d", PTR(r), rn), put_type(rt), put_comm(), TRACE_END(end)));
}
WRAP(MPI_Gather,
     (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm comm)) {
  REAL(PMPI_Gather, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm);
  COUNTED(c_gather, comm, BLOCK(s, sn, st, rn, rt), real(s, sn, st, r, rn, rt, root, comm));
}
WRAP(MPI_Scatter,
     (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm comm)) {
  REAL(PMPI_Scatter, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm);
  /* The root's block is its send block; every other rank's the receive block (its send side is ignored). */
  COUNTED(c_scatter, comm, r == MPI_IN_PLACE ? type_bytes(sn, st) : type_bytes(rn, rt),
          real(s, sn, st, r, rn, rt, root, comm));
}
WRAP(MPI_Barrier, (MPI_Comm comm)) {
  REAL(PMPI_Barrier, MPI_Comm);
  COUNTED_TRACED(c_barrier, comm, 0, real(comm), (TRACE_BEGIN("MPI_Barrier", start), put_comm(), TRACE_END(end)));
}
/* The v-forms: the bytes this rank sends (alltoallv: in all), for a size band only. */
static uint64_t sum_bytes(const int* counts, int n, MPI_Datatype t) {
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += type_bytes(counts[i], t);
  return total;
}
WRAP(MPI_Alltoallv, (const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r, const int* rn,
                     const int* rd, MPI_Datatype rt, MPI_Comm comm)) {
  REAL(PMPI_Alltoallv, const void*, const int*, const int*, MPI_Datatype, void*, const int*, const int*,
       MPI_Datatype, MPI_Comm);
  int size = 0;
  PMPI_Comm_size(comm, &size);
  COUNTED(c_alltoallv, comm, s == MPI_IN_PLACE ? sum_bytes(rn, size, rt) : sum_bytes(sn, size, st),
          real(s, sn, sd, st, r, rn, rd, rt, comm));
}
WRAP(MPI_Allgatherv, (const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* rd,
                      MPI_Datatype rt, MPI_Comm comm)) {
  REAL(PMPI_Allgatherv, const void*, int, MPI_Datatype, void*, const int*, const int*, MPI_Datatype, MPI_Comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  COUNTED(c_allgatherv, comm, s == MPI_IN_PLACE ? type_bytes(rn[rank], rt) : type_bytes(sn, st),
          real(s, sn, st, r, rn, rd, rt, comm));
}
WRAP(MPI_Gatherv, (const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* rd,
                   MPI_Datatype rt, int root, MPI_Comm comm)) {
  REAL(PMPI_Gatherv, const void*, int, MPI_Datatype, void*, const int*, const int*, MPI_Datatype, int, MPI_Comm);
  COUNTED(c_gatherv, comm, type_bytes(sn, st), real(s, sn, st, r, rn, rd, rt, root, comm));
}
WRAP(MPI_Scatterv, (const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r, int rn,
                    MPI_Datatype rt, int root, MPI_Comm comm)) {
  REAL(PMPI_Scatterv, const void*, const int*, const int*, MPI_Datatype, void*, int, MPI_Datatype, int,
       MPI_Comm);
  COUNTED(c_scatterv, comm, type_bytes(rn, rt), real(s, sn, sd, st, r, rn, rt, root, comm));
}

WRAP(MPI_Init, (int* argc, char*** argv)) {
  REAL(PMPI_Init, int*, char***);
  const int rc = real(argc, argv);
  find_interposer();
  init_end_s = PMPI_Wtime();
  open_trace(init_end_s);
  if (trace != NULL) fprintf(trace, "MPI_Init:-:%lu:%lu:%.0f\n", PTR(argc), PTR(argv), init_end_s * 1e6);
  return rc;
}
WRAP(MPI_Init_thread, (int* argc, char*** argv, int required, int* provided)) {
  REAL(PMPI_Init_thread, int*, char***, int, int*);
  const int rc = real(argc, argv, required, provided);
  find_interposer();
  init_end_s = PMPI_Wtime();
  open_trace(init_end_s);
  if (trace != NULL)
    fprintf(trace, "MPI_Init_thread:-:%lu:%lu:%d:%lu:%.0f\n", PTR(argc), PTR(argv), required, PTR(provided),
            init_end_s * 1e6);
  return rc;
}

/* A JSON string of names that are identifiers: no escaping needed. */
static void write_counts(FILE* f, int rank) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  for (char* c = host; *c; ++c)
    if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) *c = '_';
  fprintf(f, "{\"schema\": \"pico-app-counts/1\", \"rank\": %d, \"host\": \"%s\", \"interposer\": %s, ", rank, host,
          interposer != NULL ? "true" : "false");
  fprintf(f, "\"mpi_s\": %.9g, \"overflow_calls\": %llu, \"calls\": [", finalize_start_s - init_end_s,
          (unsigned long long)overflow_calls);
  int first = 1;
  for (size_t i = 0; i < kTableSize; ++i) {
    const struct entry* e = &table[i];
    if (!e->used) continue;
    fprintf(f, "%s\n {\"collective\": \"%s\", \"comm_size\": %d, \"bytes\": %llu, \"calls\": %llu, \"seconds\": %.9g, "
               "\"functions\": [",
            first ? "" : ",", kCollectiveNames[e->collective], e->comm_size, (unsigned long long)e->bytes,
            (unsigned long long)e->calls, e->seconds);
    for (uint8_t k = 0; k < e->entered_count; ++k)
      fprintf(f, "%s\"%s\"", k ? ", " : "", interposer->names[e->entered[k]]);
    fputs("]}", f);
    first = 0;
  }
  fputs("]}\n", f);
}

WRAP(MPI_Finalize, (void)) {
  REAL(PMPI_Finalize, void);
  finalize_start_s = PMPI_Wtime();
  if (trace != NULL) {
    fprintf(trace, "# collectives on communicators not written: %llu\nMPI_Finalize:%.0f:-\n",
            (unsigned long long)untraced_calls, finalize_start_s * 1e6);
    if (fclose(trace) != 0) fprintf(stderr, "pico app counter: the trace could not be written: %s\n", strerror(errno));
    trace = NULL;
  }
  const char* dir = getenv("PICO_APP_COUNTS_DIR");
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (dir != NULL && *dir != '\0') {
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%d.json", dir, rank);
    FILE* f = fopen(path, "w");
    if (f == NULL) {
      fprintf(stderr, "pico app counter: cannot write %s: %s\n", path, strerror(errno));
    } else {
      write_counts(f, rank);
      if (fclose(f) != 0) fprintf(stderr, "pico app counter: cannot write %s: %s\n", path, strerror(errno));
    }
  }
  return real();
}
