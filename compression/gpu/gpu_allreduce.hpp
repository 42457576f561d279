// SPDX-License-Identifier: BSD-3-Clause
// One compressed allreduce on the GPU (dense, Global-QSGD, Top-k): the
// algorithm its CPU twin runs too (compression/allreduce/generic/), over
// NcclCollectives and DeviceKernels, all enqueued on the session's stream.
// The call is a template over a phase mark (as on the CPU): the timed run
// marks nothing, the instrumented pass records a CUDA event at each mark.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nccl.h>

#include "backends/nccl/cuda_handles.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/gpu/device_kernels.hpp"
#include "compression/gpu/nccl_collectives.hpp"
#include "instrumentation/phase_recorder.hpp"

namespace pico::compressed::gpu {

// Where a call runs and on what: device buffers of n floats each.
struct GpuSetup {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  int rank = 0;
  int np = 1;
  std::size_t n = 0;
  std::uint64_t seed = 0;  // of the stochastic rounding, as the CPU's Setup::seed
  const float* in = nullptr;
  float* out = nullptr;
};

// The timed path's mark: nothing.
struct NoMarks {
  void operator()(const char*) const {}
};

// The instrumented pass's mark: an event on the stream at each phase
// boundary; finish() waits for the call and hands each phase's device time
// to the recorder. Events are created once, with room for `phases` marks.
class EventMarks {
 public:
  explicit EventMarks(std::size_t phases);
  void begin(cudaStream_t stream);
  void operator()(const char* phase);
  void finish(PhaseRecorder& recorder);

 private:
  cudaStream_t stream_ = nullptr;
  std::vector<Event> events_;
  std::vector<const char*> names_;
  std::size_t used_ = 0;
};

class GpuAllreduce {
 public:
  virtual ~GpuAllreduce() = default;
  // Enqueues call number `call` (it picks the random stream, as on the CPU).
  virtual void run(std::uint64_t call) = 0;
  virtual void run_marked(std::uint64_t call, EventMarks& marks) = 0;
  // Enqueues forgetting carried state (the error-feedback residual).
  virtual void reset() {}
  // The first NCCL and CUDA errors of any call so far (calls are not checked one by one).
  ncclResult_t first_nccl_error() const { return errors_.nccl; }
  cudaError_t first_cuda_error() const { return errors_.cuda; }

 protected:
  // The transport and kernels of setup `s`, noting their errors here.
  NcclCollectives collectives(const GpuSetup& s) { return {s.comm, s.stream, s.rank, s.np, errors_}; }
  DeviceKernels kernels(const GpuSetup& s) { return {s.stream, errors_}; }

 private:
  FirstErrors errors_;
};

// Implements run/run_marked from Derived::call(call, mark).
template <class Derived>
class GpuPhased : public GpuAllreduce {
 public:
  void run(std::uint64_t call) final {
    NoMarks none;
    static_cast<Derived*>(this)->call(call, none);
  }
  void run_marked(std::uint64_t call, EventMarks& marks) final { static_cast<Derived*>(this)->call(call, marks); }
};

// The most marks a call makes (Top-k with error feedback: four).
constexpr std::size_t kMaxMarks = 8;

// Throws std::invalid_argument for an unknown name or unusable parameters
// (taken from host.params as on the CPU).
std::unique_ptr<GpuAllreduce> make_gpu_allreduce(const std::string& algorithm, const GpuSetup& gpu,
                                                 const compressed::Setup& host);

}  // namespace pico::compressed::gpu
