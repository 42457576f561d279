// SPDX-License-Identifier: BSD-3-Clause
#include "compression/gpu/gpu_allreduce.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "compression/allreduce/topk_compressor.hpp"
#include "compression/gpu/gpu_algorithms.hpp"

namespace pico::compressed::gpu {

EventMarks::EventMarks(std::size_t phases) : events_(phases + 1), names_(phases, nullptr) {}

void EventMarks::begin(cudaStream_t stream) {
  stream_ = stream;
  used_ = 0;
}

void EventMarks::operator()(const char* phase) {
  if (used_ == names_.size()) throw std::logic_error("more phase marks in a call than EventMarks has events for");
  names_[used_] = phase;
  events_[used_].record(stream_);
  ++used_;
}

void EventMarks::finish(PhaseRecorder& recorder) {
  if (used_ == 0) return;
  events_[used_].record(stream_);
  events_[used_].synchronize();
  for (std::size_t i = 0; i < used_; ++i) recorder.add(names_[i], 1e-3 * events_[i + 1].since(events_[i]));
}

std::unique_ptr<GpuAllreduce> make_gpu_allreduce(const std::string& algorithm, const GpuSetup& gpu,
                                                 const compressed::Setup& host) {
  if (algorithm == "dense") return std::make_unique<GpuDense>(gpu);
  if (algorithm == "global_qsgd") {
    const double bits = host.param("bits", 8);
    if (bits != 8)
      throw std::invalid_argument(fmt::format("NCCL has no {}-bit integer type to sum the codes exactly; use bits: [8]", bits));
    return std::make_unique<GpuGlobalQsgd>(gpu);
  }
  if (algorithm == "topk") {
    return std::make_unique<GpuTopk>(gpu, compressed::topk_k(host), compressed::topk_error_feedback(host));
  }
  throw std::invalid_argument(fmt::format("no GPU compressed allreduce '{}'", algorithm));
}

}  // namespace pico::compressed::gpu
