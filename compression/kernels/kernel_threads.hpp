// SPDX-License-Identifier: BSD-3-Clause
// Threads per rank for the compression kernels. ML ranks usually own several
// cores; the kernels are free functions that every algorithm calls, so the
// count is one setting of the rank (as OpenMP's own nthreads-var is), set
// once per case outside timing (CompressedBackend::prepare) and 1 unless
// asked. A kernel splits its vector into contiguous parts in index order,
// each a multiple of kPartGrain elements, and computes every element as one
// thread would (random draws are indexed by the element's position in the
// whole vector), so its result does not depend on the thread count.
// The threads are OpenMP's (libgomp): created on the first parallel call and
// kept, so a timed call starts no thread.
#pragma once

#include <cstddef>
#include <type_traits>

#include "compression/options/options.hpp"  // kMaxKernelThreads

namespace pico::compressed {

// Parts start at multiples of this many elements (a cache line of floats
// times 4, a whole Philox block and sign byte), and hold at least
// kMinPartElements so that a small vector is not worth waking a thread for.
inline constexpr std::size_t kPartGrain = 64;
inline constexpr std::size_t kMinPartElements = std::size_t{1} << 15;

int kernel_threads();
// Throws std::invalid_argument outside [1, kMaxKernelThreads].
void set_kernel_threads(int threads);

// Sets the count for its lifetime and restores the previous one.
class ScopedKernelThreads {
 public:
  explicit ScopedKernelThreads(int threads) : previous_(kernel_threads()) { set_kernel_threads(threads); }
  ~ScopedKernelThreads() { set_kernel_threads(previous_); }
  ScopedKernelThreads(const ScopedKernelThreads&) = delete;
  ScopedKernelThreads& operator=(const ScopedKernelThreads&) = delete;

 private:
  int previous_;
};

struct PartRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};
// How many parts a vector of n elements is cut into: at most kernel_threads(),
// at least 1, none smaller than kMinPartElements (but the last).
int parts_for(std::size_t n);
// Part `part` of `parts` of [0, n): contiguous, in order, starts at multiples of kPartGrain.
PartRange part_range(std::size_t n, int parts, int part);

using PartFunction = void (*)(void* context, int part, std::size_t begin, std::size_t end);
// Calls fn(context, part, begin, end) for every part of [0, n) (parts_for(n)
// of them), in parallel, and returns when all are done; an exception in a
// part is rethrown here (the first part's first).
void run_parts(std::size_t n, PartFunction fn, void* context);

// run_parts with a callable body(part, begin, end); allocates nothing.
template <class Body>
void in_parts(std::size_t n, Body&& body) {
  run_parts(
      n,
      [](void* context, int part, std::size_t begin, std::size_t end) {
        (*static_cast<std::remove_reference_t<Body>*>(context))(part, begin, end);
      },
      &body);
}

}  // namespace pico::compressed
