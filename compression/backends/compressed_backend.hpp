// SPDX-License-Identifier: BSD-3-Clause
// Compressed allreduce (compression/families/) as a backend: float32 inputs
// drawn from the experiment's distribution, the algorithm's estimate of
// their mean over ranks, checked against what the algorithm guarantees, and
// the report's `compression` metrics (error against the exact fp64 mean,
// bias over many calls, bytes on the wire, identical results on all ranks).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "backends/backend.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "support/page_buffer.hpp"

namespace pico {

class CompressedBackend : public Backend {
 public:
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { algorithm_->run(input_, output_, call_++); }
  std::uint64_t validate() override;
  void release() override;
  bool record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) override;
  bool always_records_phases() const override { return true; }
  nlohmann::json compression(MPI_Comm harness) override;

 private:
  // The first call after reset(), with a call number of its own: what the check and the error metrics see.
  void run_checked_call();
  const compressed::ExactReference& reference();

  Case case_;
  compressed::Setup setup_;
  compressed::InputSpec inputs_;
  int bias_calls_ = 16;
  std::unique_ptr<compressed::CompressedAllreduce> algorithm_;
  // The input and the estimate in pages of their own, as MpiBackend's buffers (support/page_buffer.hpp):
  // from the heap, the dense allreduce beside the compressed ones was 2-3x slow on an AMD EPYC (issue 64).
  PageBuffer input_bytes_, output_bytes_;
  std::span<float> input_, output_;
  std::uint64_t call_ = 0;
  std::optional<compressed::ExactReference> reference_;
  std::optional<compressed::ScopedKernelThreads> kernel_threads_;  // the case's `threads`, until release()
};

}  // namespace pico
