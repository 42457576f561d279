// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "backends/mpi/mpi_backend.hpp"

namespace pico {

// The library call of a collective; which buffer it gets as MPI_IN_PLACE is
// the collective's spec's (in_place_side).
MpiCall library_call(Collective c);

}  // namespace pico
