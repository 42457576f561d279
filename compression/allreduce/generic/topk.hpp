// SPDX-License-Identifier: BSD-3-Clause
// Top-k allreduce (TopkA), written once (CPU: compression/families/topk.cpp, topk_compressor.hpp;
// GPU: compression/gpu/gpu_topk.cpp). Every rank sends its k largest |x| as
// (uint32 index, float value) pairs, optionally of x + r with error feedback
// (r = what was not sent), the pairs are allgathered (8k bytes per rank,
// (p-1) 8k received per rank), added in rank order and scaled by 1/p:
// deterministic, so the CPU check replays it bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "compression/allreduce/collective_transport.hpp"

namespace pico::compressed {

// The selection with optional error feedback: with it each call selects on
// corrected = x + r and keeps r = corrected - sent, so nothing is lost, only
// delayed. How the feedback splits into phases is the kernels' (one fused
// pass on the CPU, three kernels on the GPU).
template <CompressionKernels Kernels>
class TopkSelection {
 public:
  TopkSelection(Kernels kernels, std::size_t n, std::size_t k, bool error_feedback)
      : kernels_(std::move(kernels)),
        n_(n),
        k_(k),
        error_feedback_(error_feedback),
        residual_(Kernels::template array<float>(error_feedback ? n : 0)),
        workspace_(n, error_feedback) {
    reset();
  }

  std::size_t k() const { return k_; }
  bool error_feedback() const { return error_feedback_; }

  // indices/values: k each, written in increasing index order.
  template <class Mark>
  void select(const float* in, std::uint32_t* indices, float* values, Mark& mark) {
    if (error_feedback_) {
      kernels_.topk_select_with_residual(in, n_, residual_.data(), k_, indices, values, workspace_, mark);
    } else {
      mark("compress");
      kernels_.topk_select(in, n_, k_, indices, values, workspace_);
    }
  }
  // Forgets the residual.
  void reset() {
    if (error_feedback_) kernels_.zero(residual_.data(), n_);
  }

 private:
  Kernels kernels_;
  std::size_t n_;
  std::size_t k_;
  bool error_feedback_;
  typename Kernels::template Array<float> residual_;
  typename Kernels::TopkWorkspace workspace_;
};

// The allgather and the mean, over a selection that the caller owns (on the
// CPU the Top-k family's compressor, which the check also replays).
template <CollectiveTransport Transport, CompressionKernels Kernels>
class TopkAllgather {
 public:
  TopkAllgather(Transport transport, Kernels kernels, TopkSelection<Kernels>& selection, std::size_t n)
      : transport_(std::move(transport)),
        kernels_(std::move(kernels)),
        selection_(selection),
        n_(n),
        inv_np_(1.0f / static_cast<float>(transport_.size())),
        gathered_(Kernels::template array<std::byte>(message_bytes() * static_cast<std::size_t>(transport_.size()))),
        mean_(gathered_.data(), selection.k(), transport_.size()) {}

  // The bytes of one rank's message: k indices and k values.
  std::size_t message_bytes() const { return 8 * selection_.k(); }

  template <class Mark>
  void call(const float* in, float* out, std::uint64_t, Mark& mark) {
    const std::size_t k = selection_.k();
    std::uint32_t* mine = pair_message(gathered_.data(), k, transport_.rank());
    selection_.select(in, mine, reinterpret_cast<float*>(mine + k), mark);
    mark("communicate");
    transport_.allgather(gathered_.data(), message_bytes());
    mark("decompress");
    kernels_.mean_of_pairs(gathered_.data(), k, transport_.size(), inv_np_, out, n_, mean_);
  }

 private:
  Transport transport_;
  Kernels kernels_;
  TopkSelection<Kernels>& selection_;
  std::size_t n_;
  float inv_np_;
  typename Kernels::template Array<std::byte> gathered_;  // p messages
  typename Kernels::PairsMeanWorkspace mean_;
};

}  // namespace pico::compressed
