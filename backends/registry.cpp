#include <stdexcept>

#include "backends/backend.hpp"
#include "backends/compressed/compressed_backend.hpp"
#include "backends/fault/fault_backend.hpp"
#include "backends/mpi/mpi_backend.hpp"
#include "backends/reference/reference_backend.hpp"

namespace pico {

std::unique_ptr<Backend> make_backend(const Case& c) {
  if (c.backend == "mpi") return std::make_unique<MpiBackend>();
  if (c.backend == "compressed") return std::make_unique<CompressedBackend>();
  if (c.backend == "fault") return std::make_unique<FaultBackend>(c.algorithm);
  if (c.backend == "reference") {
    const auto segment = c.params.find("segment_size");
    return std::make_unique<ReferenceBackend>(segment != c.params.end() && segment->second > 0
                                                  ? static_cast<std::uint64_t>(segment->second)
                                                  : ReferenceBackend::kDefaultSegmentBytes);
  }
  throw std::invalid_argument("unknown backend '" + c.backend + "'");
}

}  // namespace pico
