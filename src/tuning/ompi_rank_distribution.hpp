// SPDX-License-Identifier: BSD-3-Clause
// How a communicator's ranks lie across nodes, as Open MPI 6.0's JSON rules
// key a comm-size block on it (comm_rank_distribution): ompi-json (src/export)
// writes a rule's measured placement, and the one resolution of what a loaded
// profile makes the library run (tuning/exported_choice.hpp) reads it.
// 6.0's ompi_coll_tuned_get_com_rule_ptr (ompi/mca/coll/tuned/
// coll_tuned_dynamic_rules.c) skips a "single-node" block unless every rank
// is local and a "one-per-node" block unless the communicator is disjoint
// (no two ranks share a node); "any", the default, always matches.
#pragma once

#include <string>
#include <string_view>

#include "tuning/profile.hpp"

namespace pico {

enum class RankDistribution { any, single_node, one_per_node };

// The placement a rule was measured (or predicted) on: one node, one rank per
// node over several, or "any" (several per node over several nodes, or a
// rule whose placement the reports did not say). A rule is exported for the
// placement its evidence holds: elsewhere 6.0 keeps its own decision.
RankDistribution measured_distribution(const ProfileRule& rule);

// The JSON spelling ("any", "single-node", "one-per-node").
std::string_view ompi_json_name(RankDistribution d);

// Whether 6.0 applies a block of this distribution to np ranks on `nodes`
// nodes; nodes 0 (unknown) counts as the rule's own placement.
bool distribution_matches(RankDistribution d, int np, int nodes);

// For a reader: "single-node communicators" / "one rank per node".
std::string distribution_words(RankDistribution d);

}  // namespace pico
