// Global-QSGD standard dithering on the GPU, as backends/compressed/qsgd_standard.cpp
// does it on the CPU: the scale never leaves the device (max_abs writes it,
// the MAX allreduce reduces it in place, quantize and dequantize read it).
//
// The random stream is the CPU backend's, RandomStream{seed, rank_stream(rank, call)}
// from element 0, and the GPU kernels draw the same Philox numbers, so for the
// same inputs, scale and call a GPU run gives the CPU run's codes bit for bit.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "backends/nccl_compressed/gpu_algorithms.hpp"

namespace pico::nccl {

GpuGlobalQsgd::GpuGlobalQsgd(const GpuSetup& s)
    : s_(s), levels_(compressed::standard_levels(8, s.np)), scale_(sizeof(float)), codes_(std::max<std::size_t>(s.n, 1)) {
  if (levels_ < 1)
    throw std::invalid_argument(fmt::format("8-bit codes cannot hold the sum of {} ranks without overflow "
                                            "(at most 127 ranks), and NCCL has no 16-bit integer type",
                                            s.np));
}

template <class Mark>
void GpuGlobalQsgd::call(std::uint64_t call, Mark& mark) {
  namespace gpu = compressed::gpu;
  auto* scale = scale_.as<float>();
  auto* codes = codes_.as<std::int8_t>();
  mark("norm");
  gpu::max_abs(s_.in, s_.n, scale, max_abs_, s_.stream);
  note(ncclAllReduce(scale, scale, 1, ncclFloat32, ncclMax, s_.comm, s_.stream));
  mark("compress");
  gpu::quantize_standard(s_.in, s_.n, scale, levels_,
                         compressed::RandomStream{s_.seed, compressed::rank_stream(s_.rank, call)}, 0, codes,
                         s_.stream);
  mark("communicate");
  note(ncclAllReduce(codes, codes, s_.n, ncclInt8, ncclSum, s_.comm, s_.stream));
  mark("decompress");
  gpu::dequantize(codes, s_.n, scale, levels_, s_.np, s_.out, s_.stream);
}

template void GpuGlobalQsgd::call<NoMarks>(std::uint64_t, NoMarks&);
template void GpuGlobalQsgd::call<EventMarks>(std::uint64_t, EventMarks&);

}  // namespace pico::nccl
