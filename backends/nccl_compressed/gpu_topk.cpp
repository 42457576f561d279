// Top-k allreduce (TopkA) on the GPU, as backends/compressed/topk.cpp and
// topk_compressor.hpp do it on the CPU: with error feedback corrected = x + r,
// the k largest |corrected|, r = corrected with those k zeroed. Each rank's
// message sits at its place in the gathered buffer, so the allgather is in place.
#include <algorithm>

#include "backends/nccl_compressed/gpu_algorithms.hpp"

namespace pico::nccl {

template <bool ErrorFeedback>
GpuTopk<ErrorFeedback>::GpuTopk(const GpuSetup& s, std::size_t k)
    : s_(s),
      k_(k),
      inv_np_(1.0f / static_cast<float>(s.np)),
      workspace_(s.n),
      gathered_(std::max<std::size_t>(2 * k * sizeof(std::uint32_t) * static_cast<std::size_t>(s.np), 4)),
      residual_(ErrorFeedback ? std::max<std::size_t>(s.n, 1) * sizeof(float) : 0),
      corrected_(ErrorFeedback ? std::max<std::size_t>(s.n, 1) * sizeof(float) : 0) {
  reset();
}

template <bool ErrorFeedback>
void GpuTopk<ErrorFeedback>::reset() {
  if constexpr (ErrorFeedback)
    check_cuda(cudaMemsetAsync(residual_.data(), 0, residual_.bytes(), s_.stream), "zeroing the residual");
}

template <bool ErrorFeedback>
template <class Mark>
void GpuTopk<ErrorFeedback>::call(std::uint64_t, Mark& mark) {
  namespace gpu = compressed::gpu;
  auto* gathered = gathered_.as<std::uint32_t>();
  std::uint32_t* indices = gathered + 2 * k_ * static_cast<std::size_t>(s_.rank);
  auto* values = reinterpret_cast<float*>(indices + k_);
  const float* chosen_from = s_.in;
  if constexpr (ErrorFeedback) {
    mark("error_feedback");
    gpu::add_residual(s_.in, residual_.as<float>(), s_.n, corrected_.as<float>(), s_.stream);
    chosen_from = corrected_.as<float>();
  }
  mark("compress");
  gpu::topk_select(chosen_from, s_.n, k_, indices, values, workspace_, s_.stream);
  if constexpr (ErrorFeedback) {
    mark("error_feedback");
    gpu::residual_after_topk(corrected_.as<float>(), s_.n, indices, k_, residual_.as<float>(), s_.stream);
  }
  mark("communicate");
  this->note(ncclAllGather(indices, gathered, 2 * k_, ncclUint32, s_.comm, s_.stream));
  mark("decompress");
  this->note_cuda(cudaMemsetAsync(s_.out, 0, s_.n * sizeof(float), s_.stream));
  gpu::scatter_add_blocks(gathered, reinterpret_cast<const float*>(gathered + k_), k_, s_.np, 2 * k_, s_.out, s_.n,
                          s_.stream);
  gpu::scale(s_.out, s_.n, inv_np_, s_.stream);
}

template class GpuTopk<true>;
template class GpuTopk<false>;
template void GpuTopk<true>::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuTopk<true>::call<EventMarks>(std::uint64_t, EventMarks&);
template void GpuTopk<false>::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuTopk<false>::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::nccl
