// Function multi-versioning for the element loops: GCC emits an AVX2 and a
// baseline copy of the function and an ifunc resolver picks one at load time,
// so the default build (no -march=native) still runs 256-bit loops here.
#pragma once

#define PICO_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
