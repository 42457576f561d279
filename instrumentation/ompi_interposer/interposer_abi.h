// SPDX-License-Identifier: BSD-3-Clause
/* What the Open MPI interposer (libpico-ompi-interposer.so, LD_PRELOADed into
 * pico-worker) shares with the worker: one slot per interposed function
 * (coll/base's, and the entry points of the han and adapt components), counting the calls since the worker last reset it and ordering
 * first calls, so the outermost algorithm of a call can be told from the ones
 * it delegates to. Plain C: the interposer is C, the reader C++
 * (instrumentation/interposer_probe.hpp). Single-threaded use: the counters
 * are not atomic (pico's worker makes its MPI calls from one thread). */
#ifndef PICO_INTERPOSER_ABI_H
#define PICO_INTERPOSER_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever the layout below changes; the worker refuses another. */
#define PICO_INTERPOSER_ABI_VERSION 2

/* The trampolines address these fields by offset: keep the layout. */
struct pico_interposer_slot {
  void* real;           /* the library's function (dlsym); the interposer's abort while not found */
  uint64_t calls;       /* calls since the last reset */
  uint64_t first_call;  /* the sequence number of the first call since the last reset; 0 = none */
};

struct pico_interposer_table {
  uint32_t abi_version;
  uint32_t count;
  const char* const* names;            /* count function names */
  struct pico_interposer_slot* slots;  /* count slots, in the order of names */
  uint64_t* sequence;                  /* the last sequence number handed out */
  /* Finds the functions of libraries loaded since the interposer was (Open
   * MPI's components, opened by MPI_Init): call once MPI_Init has returned. */
  void (*resolve_loaded)(void);
};

/* Exported by the interposer; the worker looks it up with dlsym. */
const struct pico_interposer_table* pico_interposer(void);

#ifdef __cplusplus
}
#endif

#endif
