// The CUDA handles the NCCL backend owns (the RAII types of the GPU kernels)
// and the check that turns an NCCL error code into an exception with NCCL's message.
#pragma once

#include <stdexcept>
#include <string>

#include <nccl.h>

#include "collectives/compressed/gpu/device_buffer.hpp"

namespace pico::nccl {

using compressed::gpu::check_cuda;
using compressed::gpu::DeviceBuffer;
using compressed::gpu::Event;
using compressed::gpu::Stream;

// The report's text for the first error timed calls met ("NCCL: ..." before
// "CUDA: ..."); "" when both are success.
inline std::string first_error_text(ncclResult_t nccl, cudaError_t cuda) {
  if (nccl != ncclSuccess) return std::string("NCCL: ") + ncclGetErrorString(nccl);
  if (cuda != cudaSuccess) return std::string("CUDA: ") + cudaGetErrorString(cuda);
  return "";
}

inline void nccl_check(ncclResult_t r, const char* what) {
  if (r == ncclSuccess) return;
  std::string message = std::string(what) + ": " + ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(nullptr); last != nullptr && *last != '\0') message += " (" + std::string(last) + ")";
  throw std::runtime_error(message);
}

}  // namespace pico::nccl
