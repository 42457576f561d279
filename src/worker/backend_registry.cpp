// SPDX-License-Identifier: BSD-3-Clause
#include "worker/backend_registry.hpp"

#include <cstdint>
#include <stdexcept>

#include "backends/fault/fault_backend.hpp"
#include "backends/mpi/guideline_backend.hpp"
#include "backends/mpi/mpi_backend.hpp"
#include "backends/reference/reference_backend.hpp"
#include "compression/backends/compressed_backend.hpp"
#include "core/guidelines.hpp"
#ifdef PICO_WITH_NCCL
#include "backends/nccl/nccl_backend.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "compression/backends/nccl_compressed_backend.hpp"
#endif

namespace pico {
namespace {

std::uint64_t reference_segment_bytes(const Case& c) {
  const auto segment = c.params.find("segment_size");
  return segment != c.params.end() && segment->second > 0 ? static_cast<std::uint64_t>(segment->second)
                                                          : ReferenceBackend::kDefaultSegmentBytes;
}

#ifdef PICO_WITH_NCCL
std::unique_ptr<Backend> nccl_backend(const Case&) { return std::make_unique<nccl::NcclBackend>(); }
std::unique_ptr<Backend> nccl_compressed_backend(const Case&) { return std::make_unique<NcclCompressedBackend>(); }
#else
// The plan skips GPU cases in a build without NCCL; a launch file written by another build may still ask.
std::unique_ptr<Backend> built_without_nccl(const Case& c) {
  throw std::invalid_argument("backend '" + c.backend + "' needs a pico-worker built with the NCCL backend");
}
std::unique_ptr<Backend> nccl_backend(const Case& c) { return built_without_nccl(c); }
std::unique_ptr<Backend> nccl_compressed_backend(const Case& c) { return built_without_nccl(c); }
#endif

}  // namespace

// No `default:`: a kind without a factory here is a -Wswitch error.
std::unique_ptr<Backend> make_backend(BackendKind kind, const Case& c) {
  switch (kind) {
    case BackendKind::mpi:
      if (is_guideline(c.algorithm)) return std::make_unique<GuidelineBackend>();  // a mock-up of the library's own
      return std::make_unique<MpiBackend>();
    case BackendKind::reference:
      return std::make_unique<ReferenceBackend>(reference_segment_bytes(c));
    case BackendKind::compressed:
      return std::make_unique<CompressedBackend>();
    case BackendKind::nccl:
      return nccl_backend(c);
    case BackendKind::nccl_compressed:
      return nccl_compressed_backend(c);
    case BackendKind::fault:
      return std::make_unique<FaultBackend>(c.algorithm);
  }
  throw std::invalid_argument("backend '" + c.backend + "' has no factory");
}

void release_backend_resources() {
#ifdef PICO_WITH_NCCL
  nccl::NcclSession::shutdown();
#endif
}

}  // namespace pico
