// SPDX-License-Identifier: BSD-3-Clause
// Function multi-versioning for the element loops: GCC emits an x86-64-v4
// (AVX-512), an AVX2 and a baseline copy of the function and an ifunc
// resolver picks one at load time, so the default build (no -march=native)
// still runs vector loops (the AVX-512 copy: quantiser +12% here, benchmarks.md).
#pragma once

#define PICO_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
