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

// Runs both loops of `iterations` timed calls after `skip` untimed ones, a
// harness barrier after each call as OSU has. Collective over `harness`;
// every rank returns the same rank-averaged result. backend.splits_call() must hold.
Overlap measure_overlap(Backend& backend, std::int64_t iterations, std::int64_t skip, MPI_Comm harness);

// How many calls each loop takes: OSU's collective counts (1,000 up to
// 8 KiB, 100 above), but both loops (about three pure calls' time per
// iteration, `median_s` each) within `budget_s`; at least one.
std::int64_t overlap_iterations(std::uint64_t bytes, double median_s, double budget_s);

}  // namespace pico
