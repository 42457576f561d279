// SPDX-License-Identifier: BSD-3-Clause
// liballprof's trace lines (spcl/atlahs goal_gen/hpc/liballprof, the tracer
// ATLAHS and Schedgen replay HPC codes from), read into records. One line per
// MPI call, `MPI_Func:tstart:arg:...:arg:tend`, times in microseconds of
// MPI_Wtime (`-` where liballprof has none: MPI_Init's start, MPI_Finalize's
// end), arguments in the C binding's order, printed after the call returned:
//
//   buffer, pointer, MPI_Status*, MPI_Request*   the address (a request is
//                                                named by its variable's address)
//   int (count, rank, tag, root, color, key)     signed decimal
//   MPI_Datatype                                 code,size,extent (size in bytes)
//   MPI_Comm                                     handle,rank in it,its size
//   request / status arrays                      the array's address
//   sendcounts, recvcounts, displs, s/rdispls    address:v0,v1,... (one per
//                                                rank of the communicator;
//                                                MPI_Reduce_scatter's recvcounts
//                                                is declared [] and printed as
//                                                an address only)
//
// liballprof records no status contents (a wildcard receive's source and
// tag) and no new communicator's handle (MPI_Comm_split prints the address of
// its output variable, and MPI_Comm_free the address of the variable it
// frees): simulation/trace_matcher.cpp and trace_communicators.cpp work them out.
// docs/simulation.md#traces lists the calls pico replays and how.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace pico::liballprof {

// What a call does in the replay.
enum class Role : std::uint8_t {
  time_only,  // local: its time joins the next compute gap
  init,       // MPI_Init, MPI_Init_thread: the trace's start
  finalize,   // MPI_Finalize: the trace's end
  collective,
  send,       // MPI_Send & co., MPI_Isend & co.
  recv,       // MPI_Recv, MPI_Irecv
  sendrecv,   // MPI_Sendrecv, MPI_Sendrecv_replace: a send and a receive, waited for together
  send_init,  // persistent: MPI_Send_init & co. (MPI_Start sends)
  recv_init,
  start,      // MPI_Start
  startall,   // MPI_Startall
  wait,       // MPI_Wait
  waitall,    // MPI_Waitall
  waitany,    // MPI_Waitany, MPI_Waitsome: which request finished is not recorded
  comm_split,
  comm_split_type,  // MPI_Comm_split_type: MPI_COMM_TYPE_SHARED's groups are the ranks of one host
  comm_dup,   // MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup
  comm_cart,  // MPI_Cart_create: the parent's first ranks, in order (no library pico knows reorders)
  comm_create,  // MPI_Comm_create: the group is not traced; the parent's ranks where every use agrees
  comm_free,  // MPI_Comm_free: the communicator in variable `variable` ends
  cancel,     // MPI_Cancel: a receive not yet matched matches nothing
  vcollective,  // MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv: messages by their printed counts
};

// The v-collectives (Role::vcollective): liballprof prints their count arrays.
enum class VCollective : std::uint8_t { gatherv, scatterv, allgatherv, alltoallv };

struct CommRef {
  std::uint64_t handle = 0;
  int rank = 0;  // the calling rank's rank in it
  int size = 0;
};

// One call as traced. Which fields hold what depends on the role.
struct Record {
  Role role = Role::time_only;
  bool blocking = true;  // false: starts the request `request`
  Collective collective = Collective::barrier;
  int line = 0;
  std::optional<double> start_us, end_us;  // nullopt: `-`
  CommRef comm;
  std::uint64_t bytes = 0;   // send: sent; recv: the buffer's; collective: the rank block
  std::int64_t peer = 0;     // send: dest; recv: source (comm ranks, or a sentinel)
  std::int64_t tag = 0;
  std::uint64_t bytes2 = 0;  // sendrecv: the receive's
  std::int64_t peer2 = 0, tag2 = 0;
  std::int64_t root = 0;
  std::int64_t color = 0, key = 0;
  std::uint64_t request = 0;  // the request variable's address (wait*, start*: the array's)
  std::uint64_t count = 0;    // waitall, waitany, startall: requests in the array
  std::uint64_t variable = 0; // a communicator call: the new communicator's variable; comm_free: the freed one's
  VCollective vcollective = VCollective::gatherv;
  // A v-collective's bytes to and from each rank of its communicator (a scalar count: the same for every rank).
  std::vector<std::uint64_t> send_bytes, recv_bytes;
};

// A call's function name and role; nullopt for functions pico does not
// replay (point to point it cannot match, I/O, RMA, ...).
struct Function {
  std::string_view name;
  Role role;
};
std::optional<Function> find_function(std::string_view name);

// The functions pico reads arguments of, for the docs and `--unknown list`.
std::vector<std::string_view> replayed_functions();

// Reads one line (not a comment or blank). Returns nullopt for a function
// find_function does not know (its name in *unknown). Throws InputError at
// file:line:column for a line that is not liballprof's.
std::optional<Record> parse_line(std::string_view text, const std::string& file, int line, std::string* unknown);

}  // namespace pico::liballprof
