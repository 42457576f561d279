// SPDX-License-Identifier: BSD-3-Clause
// How a launch's ranks spread over nodes, as far as the plan can know it:
// hierarchical components (Open MPI's coll/han) run only across nodes with
// several ranks on a node, most of their collectives only where every node
// holds as many ranks as every other.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// Ranks per node, node by node, in words: "2 nodes x 2 ranks", "2 nodes (2 + 1 ranks)", "1 node".
std::string placement_text(const std::vector<std::size_t>& ranks_per_host);

// A launch of np ranks takes the fewest nodes that hold ranks_per_node each
// (0: every rank on one node: a local platform, or one whose nodes pico is
// not told), and fills them either node after node (Open MPI's hostfile
// slots: 4 slots, np 5 is 4 + 1) or evenly (srun's block distribution over
// --nodes: np 5 is 3 + 2).
struct RankPlacement {
  enum class Fill { node_after_node, evenly };
  int ranks_per_node = 0;
  Fill fill = Fill::node_after_node;
  std::string source = "one node";  // where ranks_per_node comes from, for the report

  int nodes(int np) const { return ranks_per_node <= 0 || np <= ranks_per_node ? 1 : (np + ranks_per_node - 1) / ranks_per_node; }
  // The ranks on each node, in node order.
  std::vector<std::size_t> ranks_per_host(int np) const;
  // Every node holds as many ranks as every other.
  bool balanced(int np) const;
  // placement_text of where np ranks go.
  std::string text(int np) const { return placement_text(ranks_per_host(np)); }
};

nlohmann::json to_json(const RankPlacement& p);

}  // namespace pico
