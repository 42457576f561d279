// SPDX-License-Identifier: BSD-3-Clause
// Where a launch's ranks go (core/rank_placement.hpp): the constraint
// variables nodes, ppn, ppn_balanced and node_consecutive come from it.
#include <catch2/catch.hpp>

#include "core/rank_placement.hpp"

using namespace pico;
using Sizes = std::vector<std::size_t>;

TEST_CASE("rank placement: hostfile slots fill node after node, srun spreads evenly", "[placement]") {
  const RankPlacement slots{2, RankPlacement::Fill::node_after_node, "test"};
  CHECK(slots.ranks_per_host(2) == Sizes{2});
  CHECK(slots.ranks_per_host(3) == Sizes{2, 1});
  CHECK(slots.ranks_per_host(4) == Sizes{2, 2});
  CHECK(slots.nodes(3) == 2);
  CHECK(slots.balanced(2));
  CHECK_FALSE(slots.balanced(3));
  CHECK(slots.balanced(4));
  CHECK(slots.text(3) == "2 nodes (2 + 1 ranks)");
  CHECK(slots.text(4) == "2 nodes x 2 ranks");
  const RankPlacement srun{4, RankPlacement::Fill::evenly, "test"};
  CHECK(srun.ranks_per_host(5) == Sizes{3, 2});  // srun --nodes=2 --ntasks=5
  CHECK(srun.ranks_per_host(6) == Sizes{3, 3});
  CHECK(srun.balanced(6));
  CHECK_FALSE(srun.balanced(5));
  const RankPlacement local{};
  CHECK(local.nodes(64) == 1);
  CHECK(local.text(64) == "1 node");
  CHECK(placement_text({4, 4, 4, 4}) == "4 nodes x 4 ranks");
}

TEST_CASE("rank placement: cyclic deals ranks to the nodes in turn", "[placement]") {
  const RankPlacement cyclic{2, RankPlacement::Fill::cyclic, "test"};  // --map-by node, Hydra's -ppn 1
  CHECK(cyclic.ranks_per_host(3) == Sizes{2, 1});
  CHECK(cyclic.ranks_per_host(4) == Sizes{2, 2});
  CHECK(cyclic.nodes(4) == 2);
  CHECK_FALSE(cyclic.node_consecutive(4));  // ranks 0, 2 on one node, 1, 3 on the other
  CHECK(cyclic.node_consecutive(2));         // one node
  CHECK(RankPlacement{2, RankPlacement::Fill::node_after_node, "test"}.node_consecutive(4));
  CHECK(RankPlacement{4, RankPlacement::Fill::evenly, "test"}.node_consecutive(5));
  CHECK(to_json(cyclic)["fill"] == "cyclic");
}
