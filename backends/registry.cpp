#include <stdexcept>

#include "backends/backend.hpp"
#include "backends/compressed/compressed_backend.hpp"
#include "backends/fault/fault_backend.hpp"
#include "backends/mpi/mpi_backend.hpp"
#include "backends/reference/reference_backend.hpp"
#ifdef PICO_WITH_NCCL
#include "backends/nccl/nccl_backend.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "backends/nccl_compressed/nccl_compressed_backend.hpp"
#endif

namespace pico {

std::unique_ptr<Backend> make_backend(const Case& c) {
  if (c.backend == "mpi") return std::make_unique<MpiBackend>();
  if (c.backend == "compressed") return std::make_unique<CompressedBackend>();
  if (c.backend == "fault") return std::make_unique<FaultBackend>(c.algorithm);
#ifdef PICO_WITH_NCCL
  if (c.backend == "nccl") return std::make_unique<nccl::NcclBackend>();
  if (c.backend == "nccl_compressed") return std::make_unique<nccl::NcclCompressedBackend>();
#endif
  if (c.backend == "reference") {
    const auto segment = c.params.find("segment_size");
    return std::make_unique<ReferenceBackend>(segment != c.params.end() && segment->second > 0
                                                  ? static_cast<std::uint64_t>(segment->second)
                                                  : ReferenceBackend::kDefaultSegmentBytes);
  }
  throw std::invalid_argument("unknown backend '" + c.backend + "'");
}

void release_backend_resources() {
#ifdef PICO_WITH_NCCL
  nccl::NcclSession::shutdown();
#endif
}

}  // namespace pico
