// SPDX-License-Identifier: BSD-3-Clause
// Traces as a traced program (pico replay TRACE): Score-P's OTF2 archives
// (simulation/otf2_trace.hpp) or liballprof's traces, one file per
// rank, named `<prefix><rank><suffix>` as liballprof names them
// (`pmpi-trace-rank-N.txt`; HTOR_PMPI_FILE_PREFIX changes the prefix) or as
// the published samples do (`trace_bcast-N.dat`). TRACE is the directory (it
// must hold one such set) or rank 0's file (its name gives the set).
//
// The lines are read by simulation/liballprof.hpp, the ranks' calls tied
// together by simulation/trace_program.hpp. Limits, refused with the file
// (and line and column) named, exit 2: rank files that are not regular files
// (a FIFO, a device), lines over 16 MiB, more than 2^20 ranks, two files for
// one rank, a missing rank.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "simulation/trace_program.hpp"

namespace pico {

// The most replayed calls a trace may hold over all its ranks: reading and
// matching take about 450 B per call (400 k calls: 182 MB peak), so 3 M keep
// pico replay under 2 GB. Local calls (MPI_Wtime, MPI_Test, ...) are read and
// dropped: they cost nothing past their line.
inline constexpr std::uint64_t kMaxTraceCalls = 3'000'000;

// What to do with MPI calls pico does not replay (RMA, I/O, v-collectives, ...).
enum class UnknownCalls { refuse, skip, list };

// The MPI library the trace was taken with: its MPI_ANY_SOURCE and
// MPI_PROC_NULL differ (Open MPI -1 and -2, MPICH -2 and -1), and so does
// the size of an MPI_Request (8 and 4 bytes: liballprof prints a request
// array's address only). automatic: MPICH when the world's handle is MPICH's
// MPI_COMM_WORLD (0x44000000), else Open MPI.
enum class TraceMpi { automatic, openmpi, mpich };

// A wait that completes nothing though it names a variable no request was
// started at (trace_builder.hpp): refused, or replayed as a wait on
// MPI_REQUEST_NULL (counted in the output either way).
enum class UnmatchedWaits { refuse, null };

struct TraceOptions {
  UnknownCalls unknown = UnknownCalls::refuse;
  UnmatchedWaits unmatched_waits = UnmatchedWaits::refuse;
  TraceMpi mpi = TraceMpi::automatic;
  int threads = 0;  // ranks read at once; 0: one per hardware thread
};

// The rank files of a trace, rank 0 first. Throws InputError.
std::vector<std::string> trace_files(const std::string& path);

// Throws InputError on any file, line or call pico cannot replay faithfully
// (the message says which and what to do). unknown = list fills `listed`
// (function -> calls over all ranks) and returns an empty program.
TraceProgram load_trace(const std::string& path, const TraceOptions& o,
                        std::map<std::string, std::uint64_t>* listed = nullptr);

}  // namespace pico
