// SPDX-License-Identifier: BSD-3-Clause
/* An LD_PRELOAD library that records which of Open MPI's coll/base algorithm
 * functions run (docs/verification.md). libmpi.so.40 exports
 * ompi_coll_base_<coll>_intra_<alg>, and mca_coll_tuned.so (and coll/base
 * itself, when one algorithm delegates to another) calls them through the
 * PLT, so a preloaded definition of the same name runs instead.
 *
 * Each definition is a trampoline that knows nothing of the signature: it
 * counts the call, stamps the slot's first call since the last reset with a
 * sequence number, and jumps to the real function with every argument
 * register and the stack untouched, so the function returns straight to its
 * caller. Cost per call: one increment, one compare and an indirect jump
 * through the slot (docs/benchmarks.md measures it).
 *
 * The functions wrapped are those the catalogue names
 * (configs/catalog/openmpi.yaml, `function:`); CMake writes them into
 * interposed_functions.h as PICO_INTERPOSE(index, name) lines. x86-64 only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "instrumentation/ompi_interposer/interposer_abi.h"
#include "instrumentation/ompi_interposer/trampoline.h"

#define PICO_INTERPOSE(index, name) +1
enum { kFunctionCount = 0
#include "interposed_functions.h"
};
#undef PICO_INTERPOSE

/* Hidden, so that the trampolines reach them PC-relative, without the GOT. */
__attribute__((visibility("hidden"))) struct pico_interposer_slot pico_interposer_slots[kFunctionCount];
__attribute__((visibility("hidden"))) uint64_t pico_interposer_sequence;

#define PICO_INTERPOSE(index, name) #name,
static const char* const kNames[kFunctionCount] = {
#include "interposed_functions.h"
};
#undef PICO_INTERPOSE

_Static_assert(sizeof(struct pico_interposer_slot) == 24, "the trampolines address slots as 24-byte records");

#define PICO_INTERPOSE(index, name) PICO_TRAMPOLINE(pico_interposer_slots, pico_interposer_sequence, index, name)
#include "interposed_functions.h"
#undef PICO_INTERPOSE

/* Where a slot's function is missing from the library in the process (a
 * catalogue entry for another Open MPI version): nothing calls it there but
 * the library itself, which cannot, so reaching this is a broken install. */
static void missing_function(void) {
  fputs("pico interposer: an interposed Open MPI function is missing from the loaded libmpi\n", stderr);
  abort();
}

/* Every library the program needs is mapped before any constructor runs,
 * so libmpi's definitions are there to find. */
__attribute__((constructor)) static void find_real_functions(void) {
  for (int i = 0; i < kFunctionCount; ++i) {
    void* real = dlsym(RTLD_NEXT, kNames[i]);
    pico_interposer_slots[i].real = real != NULL ? real : (void*)missing_function;
  }
}

const struct pico_interposer_table* pico_interposer(void) {
  static const struct pico_interposer_table table = {PICO_INTERPOSER_ABI_VERSION, kFunctionCount, kNames,
                                                      pico_interposer_slots, &pico_interposer_sequence};
  return &table;
}
