// SPDX-License-Identifier: BSD-3-Clause
#include "compression/kernels/kernel_isa.hpp"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico::compressed {

namespace {

constexpr KernelIsa kAll[] = {KernelIsa::avx512, KernelIsa::avx2, KernelIsa::scalar};

KernelIsa widest() {
  for (const KernelIsa isa : kAll)
    if (cpu_runs(isa)) return isa;
  return KernelIsa::scalar;
}

std::string runnable_list() {
  std::string list;
  for (const KernelIsa isa : kAll)
    if (cpu_runs(isa)) list += (list.empty() ? "" : ", ") + std::string(kernel_isa_name(isa));
  return list;
}

// The value, or the error it makes: a function-local static whose
// initialiser throws is retried, so every call reports the same error.
struct Choice {
  KernelIsa isa = KernelIsa::scalar;
  std::string error;
  std::string hint;
};

Choice choose(const char* value) {
  if (value == nullptr || *value == '\0') return {widest(), {}, {}};
  const std::string text = value;
  for (const KernelIsa isa : kAll) {
    if (text != kernel_isa_name(isa)) continue;
    if (cpu_runs(isa)) return {isa, {}, {}};
    return {isa, fmt::format("this CPU cannot run the '{}' kernel path", printable(text)),
            fmt::format("this CPU runs: {}", runnable_list())};
  }
  return {KernelIsa::scalar, fmt::format("unknown kernel path '{}'", printable(text)),
          fmt::format("use avx512, avx2 or scalar (this CPU runs: {}), or unset it for the widest", runnable_list())};
}

KernelIsa checked(const Choice& c) {
  if (!c.error.empty()) throw InputError(kKernelIsaVariable, c.error, c.hint);
  return c.isa;
}

}  // namespace

const char* kernel_isa_name(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::avx512: return "avx512";
    case KernelIsa::avx2: return "avx2";
    case KernelIsa::scalar: break;
  }
  return "scalar";
}

bool cpu_runs(KernelIsa isa) {
  __builtin_cpu_init();
  switch (isa) {
    // The AVX-512 element loops are built for x86-64-v4 (F, BW, CD, DQ, VL);
    // the Philox kernel needs only F.
    case KernelIsa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512cd");
    case KernelIsa::avx2: return __builtin_cpu_supports("avx2");
    case KernelIsa::scalar: break;
  }
  return true;
}

KernelIsa kernel_isa_from(const char* value) { return checked(choose(value)); }

KernelIsa kernel_isa() {
  static const Choice choice = choose(std::getenv(kKernelIsaVariable));
  return checked(choice);
}

}  // namespace pico::compressed
