// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>

#include "backends/mpi/call_args.hpp"
#include "core/types.hpp"

namespace pico {

// The library call of a collective; which buffer it gets as MPI_IN_PLACE is
// the collective's spec's (in_place_side).
MpiCall library_call(Collective c);

// The requests of a started call: one for a collective, a receive and a send
// for sendrecv.
struct MpiRequests {
  std::array<MPI_Request, 2> requests{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int count = 0;
};
// Makes the call's requests: MPI_I<Coll> (started) or MPI_<Coll>_init (inactive).
using MpiStartCall = int (*)(const MpiCallArgs&, MpiRequests&);

// MPI_I<Coll> (sendrecv: MPI_Irecv and MPI_Isend), to be completed by MPI_Waitall.
MpiStartCall nonblocking_call(Collective c);

// MPI_<Coll>_init (MPI 4.0; Open MPI 4.1's MPIX_<Coll>_init from its pcollreq
// extension), or nullptr where this MPI library has no persistent collectives.
MpiStartCall persistent_init(Collective c);

// The name of the persistent-collective interface this build calls ("MPI 4.0
// MPI_<Coll>_init", "Open MPI's MPIX_<Coll>_init"), or "" where it has none.
const char* persistent_interface();

}  // namespace pico
