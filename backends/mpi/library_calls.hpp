#pragma once

#include "backends/mpi/mpi_backend.hpp"

namespace pico {

MpiCall library_call(Collective c);

// Which argument of the call this rank passes as MPI_IN_PLACE.
enum class InPlaceSide { none, send, recv };
InPlaceSide in_place_side(const Case& c, int rank);

}  // namespace pico
