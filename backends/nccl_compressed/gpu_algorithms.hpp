// The GPU algorithms (one .cpp each, where call() is defined and
// instantiated for both marks). Everything a call touches is allocated in
// the constructor: the timed path allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/nccl_compressed/gpu_allreduce.hpp"
#include "collectives/compressed/gpu/gpu_kernels.hpp"

namespace pico::nccl {

// ncclAllReduce(float32, sum), then 1/p on the device.
class GpuDense final : public GpuPhased<GpuDense> {
 public:
  explicit GpuDense(const GpuSetup& s) : s_(s), inv_np_(1.0f / static_cast<float>(s.np)) {}
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);

 private:
  GpuSetup s_;
  float inv_np_;
};

// Global-QSGD, standard dithering, 8-bit codes (NCCL has no 16-bit integer
// type): max|x| -> MAX allreduce of the scale (on the device) -> codes ->
// int8 SUM allreduce -> one decode.
class GpuGlobalQsgd final : public GpuPhased<GpuGlobalQsgd> {
 public:
  explicit GpuGlobalQsgd(const GpuSetup& s);
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);

 private:
  GpuSetup s_;
  int levels_;
  compressed::gpu::MaxAbsWorkspace max_abs_;
  DeviceBuffer scale_;  // one float: this rank's max|x|, then the global one
  DeviceBuffer codes_;  // n int8
};

// TopkA: the k (index, value) pairs of every rank, ncclAllGather'ed as one
// message per rank (k uint32 indices then k floats), scatter-added in rank
// order, then 1/p. ErrorFeedback is fixed per case, so the call has no branch on it.
template <bool ErrorFeedback>
class GpuTopk final : public GpuPhased<GpuTopk<ErrorFeedback>> {
 public:
  GpuTopk(const GpuSetup& s, std::size_t k);
  template <class Mark>
  void call(std::uint64_t call, Mark& mark);
  void reset() override;

 private:
  GpuSetup s_;
  std::size_t k_;
  float inv_np_;
  compressed::gpu::TopkWorkspace workspace_;
  DeviceBuffer gathered_;   // p messages of 2k 32-bit words
  DeviceBuffer residual_;   // n floats (error feedback only)
  DeviceBuffer corrected_;  // n floats (error feedback only)
};

}  // namespace pico::nccl
