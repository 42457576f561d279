// SPDX-License-Identifier: BSD-3-Clause
// The uncompressed baseline on the GPU (generic/dense.hpp, as the CPU's dense.cpp).
#include "compression/gpu/gpu_algorithms.hpp"

namespace pico::compressed::gpu {

GpuDense::GpuDense(const GpuSetup& s) : s_(s), algorithm_(collectives(s), kernels(s), s.n) {}

template <class Mark>
void GpuDense::call(std::uint64_t call, Mark& mark) {
  algorithm_.call(s_.in, s_.out, call, mark);
}

template void GpuDense::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuDense::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::compressed::gpu
