// SPDX-License-Identifier: BSD-3-Clause
// The launch's pairwise link probe (core/link_probe.hpp: the schedule, the
// cost model, the record): every pair of ranks exchanges kLinkProbeBytes,
// once per launch beside the clock synchronisation, skipped with it
// (timing.rank_timing: false).
#pragma once

#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace pico {

// Collective over harness. On rank 0: the launch info's link_probe, its host
// pairs from `hosts` (each rank's host, in rank order: rank 0's); null
// elsewhere, and on one rank.
nlohmann::json probe_links(MPI_Comm harness, const std::vector<std::string>& hosts);

}  // namespace pico
