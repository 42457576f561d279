// SPDX-License-Identifier: BSD-3-Clause
// Top-k allreduce (TopkA) on the GPU (generic/topk.hpp, as the CPU's compression/families/topk.cpp):
// with error feedback corrected = x + r, the k largest |corrected|, r =
// corrected with those k zeroed, as three kernels (the CPU fuses them in one pass).
#include "compression/gpu/gpu_algorithms.hpp"

namespace pico::compressed::gpu {

GpuTopk::GpuTopk(const GpuSetup& s, std::size_t k, bool error_feedback)
    : s_(s),
      selection_(kernels(s), s.n, k, error_feedback),
      algorithm_(collectives(s), kernels(s), selection_, s.n) {}

template <class Mark>
void GpuTopk::call(std::uint64_t call, Mark& mark) {
  algorithm_.call(s_.in, s_.out, call, mark);
}

template void GpuTopk::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuTopk::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::compressed::gpu
