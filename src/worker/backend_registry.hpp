// SPDX-License-Identifier: BSD-3-Clause
// The worker's backend factory: one entry per BackendKind. It sits in the
// worker, above everything it registers (backends/ and the compressed
// backends of compression/backends/), so that no layer includes a higher one.
#pragma once

#include <memory>

#include "backends/backend.hpp"
#include "core/backend_kind.hpp"
#include "core/case.hpp"

namespace pico {

// The backend of `kind` (the descriptor of c.backend, config/backends.hpp) set
// up for c; throws std::invalid_argument where this worker cannot build it.
std::unique_ptr<Backend> make_backend(BackendKind kind, const Case& c);
// Frees what backends keep across cases (the NCCL communicator); before MPI_Finalize.
void release_backend_resources();

}  // namespace pico
