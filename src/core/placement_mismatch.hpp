// SPDX-License-Identifier: BSD-3-Clause
// A platform's claimed placement against where the ranks ran (issue 66). The
// plan reads nodes and ranks per node from the platform (`placement:`, an
// emulated cluster's slots, Slurm's ntasks_per_node: provenance.placement_planned)
// and skips or keeps hierarchical algorithms by it; the workers record the host
// each rank ran on (provenance.launches). A platform claiming 2 nodes x 2 ranks
// whose launcher put all 4 ranks on one host measured a one-node run under a
// two-node name. Found from the provenance, recorded in the report
// (provenance.placement_mismatch) and said by every verb that reads one; pico
// tune keys its rules on the hosts seen, and says so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct PlacementMismatch {
  int launch = -1;
  int np = 0;
  std::vector<std::size_t> planned;  // ranks per node the plan assumed, node by node
  std::vector<std::size_t> ran;      // ranks per host the workers recorded, most first
  std::string source;                // where the plan's placement came from (RankPlacement::source)
};

// Two placements' ranks per host compared as counts, whatever the order of the
// hosts (the workers list hosts by name, the plan its nodes in fill order).
bool same_placement(std::vector<std::size_t> planned, std::vector<std::size_t> ran);

// Each launch whose hosts hold other rank counts than placement_planned gives
// for its np; empty where the report has no placement_planned or no launch
// recorded its hosts (reports of an older pico, a run whose launches all failed).
std::vector<PlacementMismatch> placement_mismatches(const nlohmann::json& provenance);

nlohmann::json to_json(const std::vector<PlacementMismatch>& found);

// One line for a user, one clause per process count ("np 4: the platform
// claims 2 nodes x 2 ranks, the ranks ran on 1 node"), or "" when none differ.
std::string placement_mismatch_text(const std::vector<PlacementMismatch>& found);

// The same line for a report (from its provenance), as every reader of one says it.
std::string report_placement_mismatch_text(const nlohmann::json& report);

}  // namespace pico
