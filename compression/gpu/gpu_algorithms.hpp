// SPDX-License-Identifier: BSD-3-Clause
// The GPU algorithms: each the generic algorithm of compression/allreduce/generic/
// over NcclCollectives and DeviceKernels on the setup's device buffers (one
// .cpp each, where call() is instantiated for both marks). Everything a call
// touches is allocated in the constructor: the timed path allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "compression/allreduce/generic/dense.hpp"
#include "compression/allreduce/generic/global_qsgd.hpp"
#include "compression/allreduce/generic/topk.hpp"
#include "compression/gpu/gpu_allreduce.hpp"

namespace pico::compressed::gpu {

// ncclAllReduce(float32, sum), then 1/p on the device.
class GpuDense final : public GpuPhased<GpuDense> {
 public:
  explicit GpuDense(const GpuSetup& s);
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);

 private:
  GpuSetup s_;
  compressed::DenseAllreduce<NcclCollectives, DeviceKernels> algorithm_;
};

// Global-QSGD, standard dithering, 8-bit codes (NCCL has no 16-bit integer
// type); the scale never leaves the device.
class GpuGlobalQsgd final : public GpuPhased<GpuGlobalQsgd> {
 public:
  explicit GpuGlobalQsgd(const GpuSetup& s);
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);

 private:
  GpuSetup s_;
  compressed::GlobalQsgdAllreduce<NcclCollectives, DeviceKernels, std::int8_t> algorithm_;
};

// TopkA: the k (index, value) pairs of every rank, allgathered as one
// message per rank, added in rank order, then 1/p; with or without error feedback.
class GpuTopk final : public GpuPhased<GpuTopk> {
 public:
  GpuTopk(const GpuSetup& s, std::size_t k, bool error_feedback);
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);
  void reset() override { selection_.reset(); }

 private:
  GpuSetup s_;
  compressed::TopkSelection<DeviceKernels> selection_;
  compressed::TopkAllgather<NcclCollectives, DeviceKernels> algorithm_;
};

}  // namespace pico::compressed::gpu
