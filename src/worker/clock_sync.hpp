// SPDX-License-Identifier: BSD-3-Clause
// The launch's clock synchronisation for per-rank timing
// (docs/methodology.md#per-rank-timing): each rank's offset to rank 0's
// MPI_Wtime, estimated once per launch, before any case.
#pragma once

#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "core/clock_offset.hpp"

namespace pico {

struct LaunchClock {
  ClockOffset mine;            // this rank's (rank 0's: zero)
  double max_residual_s = 0;   // the largest over ranks, on every rank
  // On rank 0: how far apart ranks leave the harness barrier (the 90th
  // percentile over kStaggerBarriers barriers of last exit - first exit, on
  // rank 0's clock): the arrival skew a barrier before each sample leaves.
  double barrier_stagger_s = 0;
  nlohmann::json record;       // on rank 0: the launch info's clock_sync; null elsewhere
};
inline constexpr int kStaggerBarriers = 64;

// Collective over harness.
LaunchClock synchronise_clocks(MPI_Comm harness);

// Each rank's host, in rank order, from the launch info's `ranks` (rank 0's collect_launch_info).
std::vector<std::string> rank_hosts(const nlohmann::json& launch_info);

}  // namespace pico
