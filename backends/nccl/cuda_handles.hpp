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

inline void nccl_check(ncclResult_t r, const char* what) {
  if (r == ncclSuccess) return;
  std::string message = std::string(what) + ": " + ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(nullptr); last != nullptr && *last != '\0') message += " (" + std::string(last) + ")";
  throw std::runtime_error(message);
}

}  // namespace pico::nccl
