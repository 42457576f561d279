// SPDX-License-Identifier: BSD-3-Clause
// The CUDA handles the NCCL backend owns (support/cuda_resources.hpp)
// and the check that turns an NCCL error code into an exception with NCCL's message.
#pragma once

#include <stdexcept>
#include <string>

#include <nccl.h>

#include "support/cuda_resources.hpp"

namespace pico::nccl {

using cuda::check_cuda;
using cuda::DeviceBuffer;
using cuda::Event;
using cuda::Stream;

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
