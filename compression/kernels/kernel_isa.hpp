// SPDX-License-Identifier: BSD-3-Clause
// Which instruction-set path the dispatched CPU kernels take (the Philox
// generator, the standard quantiser and dequantiser): the best this CPU runs,
// or the one PICO_KERNEL_ISA names, so that a narrower path can be measured
// and tested on a wider CPU (the AVX2 path on an AVX-512 machine,
// docs/compression.md#kernel-paths). Read once, on first use.
#pragma once

#include <string_view>

namespace pico::compressed {

enum class KernelIsa { scalar, avx2, avx512 };

inline constexpr const char* kKernelIsaVariable = "PICO_KERNEL_ISA";

// "scalar", "avx2" or "avx512".
const char* kernel_isa_name(KernelIsa isa);
// Whether this CPU can run the path (scalar: always).
bool cpu_runs(KernelIsa isa);
// The path taken: PICO_KERNEL_ISA where set (and not empty), else the widest
// the CPU runs. A name it does not know, or a path this CPU cannot run, is an
// InputError (where: PICO_KERNEL_ISA), thrown by every call.
KernelIsa kernel_isa();
// The path a value of PICO_KERNEL_ISA selects (nullptr or "": the widest the
// CPU runs); the same InputErrors. kernel_isa() is this of the environment's value.
KernelIsa kernel_isa_from(const char* value);

}  // namespace pico::compressed
