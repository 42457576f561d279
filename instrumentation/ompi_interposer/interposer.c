// SPDX-License-Identifier: BSD-3-Clause
/* An LD_PRELOAD library that records which of Open MPI's collective algorithm
 * functions run (docs/verification.md). libmpi.so.40 exports
 * ompi_coll_base_<coll>_intra_<alg>, and mca_coll_tuned.so (and coll/base
 * itself, when one algorithm delegates to another) calls them through the
 * PLT, so a preloaded definition of the same name runs instead. The
 * components Open MPI opens during MPI_Init (mca_coll_han.so,
 * mca_coll_adapt.so) export their entry points too, and bind their own
 * references to them (the module's function table, calls between their
 * functions) through the GOT, so a preloaded definition wins there as well;
 * their real definitions are looked up once MPI_Init has opened them
 * (resolve_loaded, which the worker calls), since they are not loaded when
 * this library's constructor runs.
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
#include <link.h>
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

/* Where a slot's function is in no library of the process (a catalogue
 * entry for another Open MPI version, a component not opened): nothing calls
 * it but the library that defines it, so reaching this is a broken install. */
static void missing_function(void) {
  fputs("pico interposer: an interposed Open MPI function is missing from the loaded libraries\n", stderr);
  abort();
}

/* Every library the program links is mapped before any constructor runs,
 * so libmpi's definitions are there to find. */
__attribute__((constructor)) static void find_real_functions(void) {
  for (int i = 0; i < kFunctionCount; ++i) {
    void* real = dlsym(RTLD_NEXT, kNames[i]);
    pico_interposer_slots[i].real = real != NULL ? real : (void*)missing_function;
  }
}

/* The file names of the loaded objects: dl_iterate_phdr holds the loader's
 * lock while it calls back, so dlopen waits until it has returned. The names
 * are the loader's own and live as long as their objects. */
enum { kMaxObjects = 1024 };
struct loaded_objects {
  const char* names[kMaxObjects];
  int count;
};

static int note_object(struct dl_phdr_info* object, size_t size, void* data) {
  (void)size;
  struct loaded_objects* loaded = data;
  if (object->dlpi_name != NULL && object->dlpi_name[0] != '\0' && loaded->count < kMaxObjects)
    loaded->names[loaded->count++] = object->dlpi_name;
  return 0;
}

/* Each loaded object's definitions of the slots still missing. Open MPI opens
 * its components (mca_coll_han.so, mca_coll_adapt.so) in MPI_Init, after the
 * constructor ran, and may open them RTLD_LOCAL, out of RTLD_NEXT's reach:
 * each object is looked up through its own handle, and a definition in this
 * library (its trampoline) is no real function. The worker calls this once
 * MPI_Init has returned, before its first case; no dlerror is left behind. */
static void resolve_loaded(void) {
  static struct loaded_objects loaded;
  loaded.count = 0;
  dl_iterate_phdr(note_object, &loaded);
  Dl_info own;
  const void* self = dladdr((void*)missing_function, &own) != 0 ? own.dli_fbase : NULL;
  for (int k = 0; k < loaded.count; ++k) {
    void* handle = dlopen(loaded.names[k], RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) continue;
    for (int i = 0; i < kFunctionCount; ++i) {
      if (pico_interposer_slots[i].real != (void*)missing_function) continue;
      void* real = dlsym(handle, kNames[i]);
      Dl_info info;
      if (real != NULL && dladdr(real, &info) != 0 && info.dli_fbase != self) pico_interposer_slots[i].real = real;
    }
    dlclose(handle);
  }
  (void)dlerror();
}

const struct pico_interposer_table* pico_interposer(void) {
  static const struct pico_interposer_table table = {PICO_INTERPOSER_ABI_VERSION, kFunctionCount, kNames,
                                                      pico_interposer_slots, &pico_interposer_sequence,
                                                      resolve_loaded};
  return &table;
}
