// SPDX-License-Identifier: BSD-3-Clause
// The overlap of a non-blocking call with computation, measured as OSU 7.4's
// non-blocking benchmarks measure it (osu_iallreduce & co.): a loop of
// start + wait gives each rank its pure communication time; a second loop
// puts that much computation between start and wait; the overlap is how much
// of the communication the computation hid (Overlap::osu_percent).
#pragma once

#include <cstdint>

#include <mpi.h>

#include "backends/backend.hpp"
#include "core/case_result.hpp"

namespace pico {

// Runs both loops: `skip` untimed calls, then timed ones, each followed by
// OSU's barrier (on the harness communicator); in the first, a reduction
// before it tells every rank the loop's elapsed time. The first loop stops after
// `max_iterations` timed calls, or once it has used a third of `budget_s`
// (the second, with the computation, takes about twice as long); the second
// takes as many. Collective over `harness`; every rank returns the same
// rank-averaged result. backend.splits_call() must hold.
Overlap measure_overlap(Backend& backend, std::int64_t max_iterations, std::int64_t skip, double budget_s,
                        MPI_Comm harness);

// OSU 7.4's count for collectives: 1,000 calls up to 8 KiB, 100 above.
std::int64_t overlap_iterations(std::uint64_t bytes);

}  // namespace pico
