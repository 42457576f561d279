// SPDX-License-Identifier: BSD-3-Clause
// Ties the ranks' liballprof records into one traced program
// (simulation/trace_program.hpp): communicators, collective calls, messages
// and requests. What the trace does not record is worked out, each rule in
// docs/simulation.md#traces:
//
// - Communicators. A handle first seen with the world's size is the world; one
//   of size 1 a communicator of the rank alone. MPI_Comm_split's groups come
//   from every member's color and key (ordered by key, then parent rank);
//   MPI_Comm_dup's is its parent's. liballprof prints the address of the new
//   communicator, not its handle, so a new handle is bound to the rank's
//   oldest communicator made but not yet used whose size and the rank's place
//   in it match what the handle's calls print.
// - Messages. Receives match sends in MPI's order (per communicator, source
//   and tag; first posted, first sent). A receive from MPI_ANY_SOURCE takes,
//   of the first matching send of each source, the one that started first by
//   the trace's clock (liballprof records no status).
// - Requests. A request is its variable's address; MPI_Waitall's array holds
//   the library's request size per element. MPI_Waitany and MPI_Waitsome
//   complete the array's oldest active request. A wait on an address no call
//   started is a wait on MPI_REQUEST_NULL: nothing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "simulation/liballprof.hpp"
#include "simulation/trace_program.hpp"
#include "simulation/trace_reader.hpp"

namespace pico {

// A rank's replayed calls. Local calls (MPI_Wtime, MPI_Test, ...) are not
// kept, only the times of the rank's first and last call (nullopt: taken from
// the records).
struct RankRecords {
  std::string file;
  std::vector<liballprof::Record> records;
  std::optional<double> first_us, last_us;
  std::string host;  // the header's `# hostname:` ("" if none): MPI_Comm_split_type's MPI_COMM_TYPE_SHARED groups by it
};

// Rank r's records are ranks[r]. `known` (an OTF2 archive's definitions):
// communicator handle -> its world ranks in comm-rank order; given, every
// handle must be one of them and none is rebuilt. Throws InputError naming
// the file and line of a call that cannot be tied to the others.
TraceProgram build_trace_program(std::vector<RankRecords> ranks, TraceMpi mpi,
                                 const std::map<std::uint64_t, std::vector<int>>& known = {});

}  // namespace pico
