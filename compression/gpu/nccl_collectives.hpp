// SPDX-License-Identifier: BSD-3-Clause
// The GPU backend's CollectiveTransport (compression/allreduce/collective_transport.hpp):
// device buffers, NCCL collectives enqueued on the session's stream. Calls
// are not checked one by one: the first error is kept for the backend to
// report after the call (FirstErrors).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

#include "compression/allreduce/collective_transport.hpp"

namespace pico::compressed::gpu {

// The first NCCL and CUDA errors of the work a GPU algorithm enqueued.
struct FirstErrors {
  ncclResult_t nccl = ncclSuccess;
  cudaError_t cuda = cudaSuccess;
  void note(ncclResult_t r) { nccl = nccl != ncclSuccess ? nccl : r; }
  void note(cudaError_t e) { cuda = cuda != cudaSuccess ? cuda : e; }
};

class NcclCollectives {
 public:
  NcclCollectives(ncclComm_t comm, cudaStream_t stream, int rank, int size, FirstErrors& errors)
      : comm_(comm), stream_(stream), rank_(rank), size_(size), errors_(&errors) {}
  int rank() const { return rank_; }
  int size() const { return size_; }

  void allreduce_sum(const float* in, float* out, std::size_t n) {
    errors_->note(ncclAllReduce(in, out, n, ncclFloat32, ncclSum, comm_, stream_));
  }
  // NCCL has no 16-bit integer type: Global-QSGD on the GPU has 8-bit codes only.
  void allreduce_sum(std::int8_t* codes, std::size_t n) {
    errors_->note(ncclAllReduce(codes, codes, n, ncclInt8, ncclSum, comm_, stream_));
  }
  void allreduce_max(float* x) { errors_->note(ncclAllReduce(x, x, 1, ncclFloat32, ncclMax, comm_, stream_)); }
  // In place: NCCL's send buffer is the rank's own slot of the receive buffer.
  void allgather(std::byte* gathered, std::size_t bytes) {
    errors_->note(ncclAllGather(gathered + bytes * static_cast<std::size_t>(rank_), gathered, bytes, ncclUint8, comm_,
                                stream_));
  }

 private:
  ncclComm_t comm_;
  cudaStream_t stream_;
  int rank_;
  int size_;
  FirstErrors* errors_;
};

static_assert(compressed::CollectiveTransport<NcclCollectives>);

}  // namespace pico::compressed::gpu
