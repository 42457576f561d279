// SPDX-License-Identifier: BSD-3-Clause
#include "core/gpu_support.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#ifdef PICO_WITH_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

namespace pico::gpu {

#ifdef PICO_WITH_NCCL

std::string_view nccl_build_version() {
  static const std::string v = fmt::format("{}.{}.{}", NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH);
  return v;
}

std::string_view cuda_build_version() {
  static const std::string v = fmt::format("{}.{}", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  return v;
}

DeviceCensus census() {
  DeviceCensus c;
  if (const cudaError_t e = cudaGetDeviceCount(&c.count); e != cudaSuccess) {
    c.count = 0;
    c.error = cudaGetErrorString(e);
    return c;
  }
  for (int d = 0; d < c.count; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    c.names.push_back(fmt::format("{} (sm_{}{}, {:.1f} GiB)", p.name, p.major, p.minor,
                                  static_cast<double>(p.totalGlobalMem) / (1ull << 30)));
  }
  if (c.count == 0) c.error = "no CUDA device";
  return c;
}

#else

std::string_view nccl_build_version() { return {}; }
std::string_view cuda_build_version() { return {}; }
DeviceCensus census() { return {0, {}, "this build has no CUDA support"}; }

#endif

std::string backend_status() {
  if (nccl_build_version().empty())
    return "not built (configure where the CUDA toolkit and NCCL are installed: docs/nccl.md)";
  const DeviceCensus c = census();
  const std::string built = fmt::format("built (NCCL {}, CUDA {})", nccl_build_version(), cuda_build_version());
  if (c.count == 0) return fmt::format("{}, no device: {}", built, c.error);
  return fmt::format("{}, {} device{}: {}", built, c.count, c.count == 1 ? "" : "s", fmt::join(c.names, "; "));
}

}  // namespace pico::gpu
