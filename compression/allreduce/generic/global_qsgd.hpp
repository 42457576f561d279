// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with standard dithering, written once (CPU: compression/families/global_qsgd.cpp,
// GPU: compression/gpu/gpu_global_qsgd.cpp; the method and its error bound
// are described there): max |x| -> MAX allreduce of the scale -> b-bit codes
// with `levels` levels -> integer SUM allreduce of the codes -> one decode.
// The scale stays on the kernels' side (on the GPU it never leaves the
// device). Cost: one allreduce of a float, one of n codes, three passes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "compression/allreduce/collective_transport.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"

namespace pico::compressed {

template <CollectiveTransport Transport, CompressionKernels Kernels, class Code>
class GlobalQsgdAllreduce {
 public:
  // levels: standard_levels(bits, p), checked >= 1 by the caller (whose message names the way out).
  GlobalQsgdAllreduce(Transport transport, Kernels kernels, std::size_t n, std::uint64_t seed, int levels)
      : transport_(std::move(transport)),
        kernels_(std::move(kernels)),
        n_(n),
        seed_(seed),
        levels_(levels),
        scale_(Kernels::template array<float>(1)),
        codes_(Kernels::template array<Code>(n)) {}

  // Each rank's random stream is RandomStream{seed, rank_stream(rank, call)} from element 0 on both sides.
  template <class Mark>
  void call(const float* in, float* out, std::uint64_t call, Mark& mark) {
    mark("norm");
    kernels_.max_abs(in, n_, scale_.data(), max_abs_);
    transport_.allreduce_max(scale_.data());
    mark("compress");
    kernels_.quantize_standard(in, n_, scale_.data(), levels_, RandomStream{seed_, rank_stream(transport_.rank(), call)},
                               0, codes_.data());
    mark("communicate");
    transport_.allreduce_sum(codes_.data(), n_);
    mark("decompress");
    kernels_.dequantize(codes_.data(), n_, scale_.data(), levels_, transport_.size(), out);
  }

  Transport& transport() { return transport_; }

 private:
  Transport transport_;
  Kernels kernels_;
  std::size_t n_;
  std::uint64_t seed_;
  int levels_;
  typename Kernels::MaxAbsWorkspace max_abs_;
  typename Kernels::template Array<float> scale_;  // this rank's max |x|, then the global one
  typename Kernels::template Array<Code> codes_;
};

}  // namespace pico::compressed
