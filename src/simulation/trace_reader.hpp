// liballprof MPI traces as a workload (pico replay DIR): one file per rank,
// DIR/pmpi-trace-rank-N.txt for N = 0..P-1, one line per MPI call,
// `MPI_Func:tstart:args...:tend`, times in microseconds, arguments in the
// order of the C binding (the format ATLAHS replays for HPC codes; pico reads
// the calls below, docs/simulation.md#traces). A datatype argument is
// `handle,size[,...]` (its size in bytes second), a communicator
// `handle[,...]` (its handle first; the world is the one handle no
// MPI_Comm_split or MPI_Comm_dup made).
//
//   MPI_Allreduce:t:sbuf:rbuf:count:type:op:comm:t   MPI_Bcast:t:buf:count:type:root:comm:t
//   MPI_Reduce:t:sbuf:rbuf:count:type:op:root:comm:t MPI_Barrier:t:comm:t
//   MPI_Allgather / MPI_Alltoall:t:sbuf:scount:stype:rbuf:rcount:rtype:comm:t
//   MPI_Comm_split:t:comm:color:key:newcomm:t        MPI_Comm_dup:t:comm:newcomm:t
//   MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Comm_rank, MPI_Comm_size, MPI_Wtime: time only
//
// Every rank must make the same calls in the same order (ranks of different
// groups of a split on their own groups): the replay is one program per rank
// with per-rank compute gaps (tstart of a call - tend of the previous).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "simulation/workload.hpp"

namespace pico {

// What to do with MPI calls pico does not replay (point to point, I/O, ...).
enum class UnknownCalls { refuse, skip, list };

// Throws InputError: a missing rank file, a line that is not of the format,
// times that run backwards, sizes over 1 TiB, ranks whose calls differ, and
// (refuse) calls pico does not replay, listed with their counts. skip folds
// an unknown call's time into the next compute gap; list fills `listed`
// (function -> calls over all ranks) and returns an empty workload.
Workload load_trace_workload(const std::string& dir, UnknownCalls unknown,
                             std::map<std::string, std::uint64_t>* listed = nullptr, int threads = 0);

}  // namespace pico
