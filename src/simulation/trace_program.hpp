// SPDX-License-Identifier: BSD-3-Clause
// An application as its liballprof traces show it (pico replay TRACE_DIR):
// per rank, the MPI calls it made in program order, each after the compute
// gap that preceded it, with every point-to-point message matched to its
// receive and every collective call matched across its communicator.
//
// Unlike a Workload (simulation/workload.hpp) ranks need not make the same
// calls: rank 0 may send while rank 1 receives. What ties ranks together is
// held once, in the program: communicators (their world ranks), collective
// calls (one entry for all the members' calls) and messages (one entry for a
// send and the receive it matched). A rank's operations point into them.
//
// Requests: a non-blocking call (MPI_Isend, MPI_Irecv, MPI_Iallreduce, ...)
// starts request k of its rank (k = 0, 1, ... in call order); a wait lists the
// requests it completes. MPI_Sendrecv is a send and a receive started
// together and waited for together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace pico {

struct TraceCommunicator {
  std::vector<int> ranks;  // world ranks, in comm-rank order
};

// One collective call, made by every member of `comm`.
struct TraceCollective {
  Collective collective = Collective::barrier;
  std::uint64_t bytes = 0;  // per rank block, as a case's bytes
  int comm = 0;             // index into TraceProgram::comms; 0 is the world
  int root = 0;             // comm rank
  std::string counts{};     // alltoallv: its count-matrix pattern (collectives/count_matrix.hpp); "" = uniform
};

// One message: a send matched to the receive that took it (MPI's order: the
// k-th send from src to dst on a communicator with a tag goes to the k-th
// receive posted at dst for that source and tag, wildcards resolved from
// the receive's status).
struct TraceMessage {
  int src = 0, dst = 0;     // world ranks
  std::uint64_t bytes = 0;  // as sent
};

// cancelled: a receive MPI_Cancel reached before it matched; nothing to replay (its gap still counts).
enum class TraceOpKind : std::uint8_t { send, recv, collective, wait, cancelled };

struct TraceOp {
  TraceOpKind kind = TraceOpKind::wait;
  bool blocking = true;     // false: starts request `request`
  double gap_s = 0;         // compute before the call (since the previous replayed call ended)
  std::uint64_t index = 0;  // send, recv: message; collective: collective; wait: first of its requests in `waited`
  std::uint32_t count = 0;  // wait: how many requests it completes
  std::uint32_t request = 0;
  int line = 0;             // in the rank's trace file
};

struct TraceRank {
  std::string file;
  std::vector<TraceOp> ops;
  std::vector<std::uint32_t> waited;  // the requests of the waits, in order
  std::uint32_t requests = 0;         // how many requests the rank starts
  double final_gap_s = 0;             // compute after the last replayed call (to MPI_Finalize)
  double first_start_s = 0, last_end_s = 0;  // the traced times of its first and last calls
};

// How the trace's waits and cancels were tied to requests (simulation/trace_builder.hpp), for the user.
struct TraceRequests {
  std::uint64_t through_copy = 0;  // waits bound to a request started at another variable (a copy of it)
  std::uint64_t lost = 0;          // waits naming only variables no request was started at, with none to bind
  std::uint64_t contradicted = 0;  // waits naming a variable whose request a wait through a copy took earlier
  std::uint64_t cancelled = 0;     // receives cancelled before they matched
  std::uint64_t uncancelled = 0;   // MPI_Cancel of a send or a collective: replayed as made
  std::string first_file, first_why;  // the first lost or contradicted wait: where, and why it completes nothing
  int first_line = 0;
};

struct TraceProgram {
  std::vector<TraceCommunicator> comms;  // [0]: the world
  std::vector<TraceCollective> collectives;
  std::vector<TraceMessage> messages;
  std::vector<TraceRank> ranks;
  std::vector<std::string> notes;  // what the reader assumed where the trace was unclear, for the user
  TraceRequests requests;

  int size() const { return static_cast<int>(ranks.size()); }
  // The run as traced: the slowest rank's last end minus its first start.
  double traced_runtime_s() const;
  // Scales every compute gap (--compute-scale): 0.5 asks what a twice faster compute would give.
  void scale_compute(double factor);
};

}  // namespace pico
