// SPDX-License-Identifier: BSD-3-Clause
// Score-P's OTF2 traces as the same records liballprof's lines give
// (simulation/liballprof.hpp), read with the OTF2 library (Debian's
// libotf2-trace-dev): pico replay traces.otf2.
//
// Ranks are the locations of the archive's MPI COMM_LOCATIONS group (rank i
// its i-th member); communicators come from the archive's definitions (their
// groups' ranks), so nothing has to be rebuilt. A call is an MPI region's
// Enter..Leave (tstart, tend); what it did, its events inside:
//
//   MpiSend, MpiRecv              a blocking send, receive (both: MPI_Sendrecv)
//   MpiIsend, MpiIrecvRequest     a non-blocking send, receive (its source and
//                                 tag from the MpiIrecv that completes it: OTF2
//                                 records the status, so wildcards are resolved)
//   MpiIsendComplete, MpiIrecv,   a wait for that request
//   NonBlockingCollectiveComplete
//   MpiCollectiveEnd              a collective; its rank block from sizeSent and
//                                 sizeReceived by Score-P's convention (e.g.
//                                 allreduce: received / P; bcast: received)
//   NonBlockingCollectiveRequest  a non-blocking collective, completed above
//
// MPI regions that communicate in ways pico does not replay (RMA, probes,
// v-collectives, ...) count as unknown calls, like liballprof's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "simulation/trace_builder.hpp"

namespace pico {

// Whether pico was built with the OTF2 library.
bool otf2_supported();

// Whether `path` names an OTF2 archive (its anchor file, `*.otf2`).
bool is_otf2_archive(const std::string& path);

struct Otf2Trace {
  std::vector<RankRecords> ranks;
  std::map<std::uint64_t, std::vector<int>> comms;  // communicator -> its world ranks, in comm-rank order
  std::map<std::string, std::uint64_t> unknown;     // MPI function -> calls pico does not replay
};

// Throws InputError when the archive cannot be read or holds no MPI ranks.
Otf2Trace read_otf2(const std::string& anchor);

}  // namespace pico
