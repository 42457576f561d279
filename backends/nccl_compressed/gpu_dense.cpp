// The uncompressed baseline on the GPU: ncclAllReduce(float32, sum), then 1/p
// (the CPU's dense, backends/compressed/dense.cpp).
#include "backends/nccl_compressed/gpu_algorithms.hpp"

namespace pico::nccl {

template <class Mark>
void GpuDense::call(std::uint64_t, Mark& mark) {
  mark("communicate");
  note(ncclAllReduce(s_.in, s_.out, s_.n, ncclFloat32, ncclSum, s_.comm, s_.stream));
  mark("decompress");
  compressed::gpu::scale(s_.out, s_.n, inv_np_, s_.stream);
}

template void GpuDense::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuDense::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::nccl
