// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD standard dithering on the GPU (generic/global_qsgd.hpp, as the
// CPU's compression/families/global_qsgd.cpp with communicate: library).
//
// The random stream is the CPU backend's, RandomStream{seed, rank_stream(rank, call)}
// from element 0, and the GPU kernels draw the same Philox numbers, so for the
// same inputs, scale and call a GPU run gives the CPU run's codes bit for bit.
#include <stdexcept>

#include <fmt/format.h>

#include "compression/gpu/gpu_algorithms.hpp"

namespace pico::compressed::gpu {
namespace {

int checked_levels(int np) {
  const int levels = compressed::standard_levels(8, np);
  if (levels < 1)
    throw std::invalid_argument(fmt::format("8-bit codes cannot hold the sum of {} ranks without overflow "
                                            "(at most 127 ranks), and NCCL has no 16-bit integer type",
                                            np));
  return levels;
}

}  // namespace

GpuGlobalQsgd::GpuGlobalQsgd(const GpuSetup& s)
    : s_(s), algorithm_(collectives(s), kernels(s), s.n, s.seed, checked_levels(s.np)) {}

template <class Mark>
void GpuGlobalQsgd::call(std::uint64_t call, Mark& mark) {
  algorithm_.call(s_.in, s_.out, call, mark);
}

template void GpuGlobalQsgd::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuGlobalQsgd::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::compressed::gpu
