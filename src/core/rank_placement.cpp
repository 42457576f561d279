// SPDX-License-Identifier: BSD-3-Clause
#include "core/rank_placement.hpp"

#include <fmt/format.h>

namespace pico {

std::string RankPlacement::text(int np) const {
  const int n = nodes(np);
  if (n == 1) return "1 node";
  if (balanced(np)) return fmt::format("{} nodes x {} ranks", n, ranks_per_node);
  return fmt::format("{} nodes ({} x {} ranks, then {})", n, n - 1, ranks_per_node, np - (n - 1) * ranks_per_node);
}

nlohmann::json to_json(const RankPlacement& p) {
  return {{"ranks_per_node", p.ranks_per_node}, {"fill", "node after node"}, {"source", p.source}};
}

}  // namespace pico
