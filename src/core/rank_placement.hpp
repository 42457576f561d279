// SPDX-License-Identifier: BSD-3-Clause
// How a launch's ranks spread over nodes, as far as the plan can know it:
// hierarchical components (Open MPI's coll/han) run only across nodes, and
// only where every node holds as many ranks as every other.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// Ranks fill node after node, ranks_per_node each (Open MPI's hostfile
// slots, Slurm's block distribution). 0: every rank on one node (a local
// platform, or one whose nodes pico is not told).
struct RankPlacement {
  int ranks_per_node = 0;
  std::string source = "one node";  // where ranks_per_node comes from, for the report

  int nodes(int np) const { return ranks_per_node <= 0 || np <= ranks_per_node ? 1 : (np + ranks_per_node - 1) / ranks_per_node; }
  // Every node holds as many ranks as every other.
  bool balanced(int np) const { return nodes(np) == 1 || np % ranks_per_node == 0; }
  // "2 nodes x 2 ranks", "2 nodes (2 + 1 ranks)", "1 node".
  std::string text(int np) const;
};

nlohmann::json to_json(const RankPlacement& p);

}  // namespace pico
