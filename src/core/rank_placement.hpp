// SPDX-License-Identifier: BSD-3-Clause
// How a launch's ranks spread over nodes, as far as the plan can know it:
// hierarchical components (Open MPI's coll/han) run only across nodes with
// several ranks on a node, most of their collectives only where every node
// holds as many ranks as every other.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// Ranks per node, node by node, in words: "2 nodes x 2 ranks", "2 nodes (2 + 1 ranks)", "1 node".
std::string placement_text(const std::vector<std::size_t>& ranks_per_host);

// A launch of np ranks takes the fewest nodes that hold ranks_per_node each
// (0: every rank on one node: a local platform, or one whose nodes pico is
// not told), and fills them node after node (Open MPI's hostfile slots: 4
// slots, np 5 is 4 + 1), evenly (srun's block distribution over --nodes: np 5
// is 3 + 2), or cyclic (rank i on node i mod nodes: Open MPI's --map-by node,
// Hydra's -ppn 1; as many per node as evenly, but a node's ranks are not
// consecutive).
struct RankPlacement {
  enum class Fill { node_after_node, evenly, cyclic };
  int ranks_per_node = 0;
  Fill fill = Fill::node_after_node;
  std::string source = "one node";  // where ranks_per_node comes from, for the report

  int nodes(int np) const { return ranks_per_node <= 0 || np <= ranks_per_node ? 1 : (np + ranks_per_node - 1) / ranks_per_node; }
  // The ranks on each node, in node order.
  std::vector<std::size_t> ranks_per_host(int np) const;
  // Every node holds as many ranks as every other.
  bool balanced(int np) const;
  // Each node's ranks are consecutive in the communicator (MPICH's is_node_consecutive).
  bool node_consecutive(int np) const { return fill != Fill::cyclic || nodes(np) == 1; }
  // placement_text of where np ranks go.
  std::string text(int np) const { return placement_text(ranks_per_host(np)); }
};

std::string_view name(RankPlacement::Fill fill);  // "node after node", "evenly", "cyclic"
nlohmann::json to_json(const RankPlacement& p);
// The placement to_json wrote (a report's provenance.placement_planned); nullopt where it is not one.
std::optional<RankPlacement> placement_from_json(const nlohmann::json& j);

}  // namespace pico
