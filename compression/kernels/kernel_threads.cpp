// SPDX-License-Identifier: BSD-3-Clause
#include "compression/kernels/kernel_threads.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <exception>
#include <stdexcept>

#include <fmt/format.h>

namespace pico::compressed {
namespace {

// Set only by the rank's main thread between calls, never inside a kernel.
int g_kernel_threads = 1;

}  // namespace

int kernel_threads() { return g_kernel_threads; }

void set_kernel_threads(int threads) {
  if (threads < 1 || threads > kMaxKernelThreads)
    throw std::invalid_argument(fmt::format("kernel threads must lie in [1, {}], not {}", kMaxKernelThreads, threads));
  g_kernel_threads = threads;
  // libgomp starts its threads at the first region of a size and keeps them:
  // start them here, outside any timed call.
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
    }
  }
}

int parts_for(std::size_t n) {
  const std::size_t most = (n + kMinPartElements - 1) / kMinPartElements;
  const auto threads = static_cast<std::size_t>(g_kernel_threads);
  return static_cast<int>(std::max<std::size_t>(1, std::min(threads, most)));
}

PartRange part_range(std::size_t n, int parts, int part) {
  // Whole grains shared out as evenly as they go; the last part takes the remainder.
  const std::size_t grains = n / kPartGrain;
  const auto p = static_cast<std::size_t>(parts);
  const auto at = [&](std::size_t j) { return j == p ? n : (grains * j / p) * kPartGrain; };
  return {at(static_cast<std::size_t>(part)), at(static_cast<std::size_t>(part) + 1)};
}

void run_parts(std::size_t n, PartFunction fn, void* context) {
  const int parts = parts_for(n);
  if (parts == 1) {
    fn(context, 0, 0, n);
    return;
  }
  // An exception must not leave an OpenMP region: each part keeps its own.
  std::array<std::exception_ptr, kMaxKernelThreads> errors;
#pragma omp parallel for num_threads(parts) schedule(static, 1)
  for (int part = 0; part < parts; ++part) {
    try {
      const PartRange r = part_range(n, parts, part);
      fn(context, part, r.begin, r.end);
    } catch (...) {
      errors[static_cast<std::size_t>(part)] = std::current_exception();
    }
  }
  for (int part = 0; part < parts; ++part)
    if (errors[static_cast<std::size_t>(part)]) std::rethrow_exception(errors[static_cast<std::size_t>(part)]);
}

}  // namespace pico::compressed
