// SPDX-License-Identifier: BSD-3-Clause
// The uncompressed baseline, written once (CPU: dense.cpp, GPU:
// compression/gpu/gpu_dense.cpp): the float32 SUM allreduce, then 1/p.
// Cost: the library's allreduce of 4n bytes, one pass to scale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "compression/allreduce/collective_transport.hpp"

namespace pico::compressed {

template <CollectiveTransport Transport, CompressionKernels Kernels>
class DenseAllreduce {
 public:
  DenseAllreduce(Transport transport, Kernels kernels, std::size_t n)
      : transport_(std::move(transport)),
        kernels_(std::move(kernels)),
        n_(n),
        inv_np_(1.0f / static_cast<float>(transport_.size())) {}

  template <class Mark>
  void call(const float* in, float* out, std::uint64_t, Mark& mark) {
    mark("communicate");
    transport_.allreduce_sum(in, out, n_);
    mark("decompress");
    kernels_.scale(out, n_, inv_np_);
  }

 private:
  Transport transport_;
  Kernels kernels_;
  std::size_t n_;
  float inv_np_;
};

}  // namespace pico::compressed
