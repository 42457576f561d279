// SPDX-License-Identifier: BSD-3-Clause
// A platform's claimed placement against the hosts its ranks ran on (issue 66):
// the claim of 2 nodes x 2 ranks where all 4 ran on one host is found, said in
// one line and recorded; a placement that held, in whatever host order, is not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/placement_mismatch.hpp"
#include "core/rank_placement.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// A launch record of provenance.launches: each host with its ranks, numbered from 0.
json launch(int index, const std::vector<std::pair<std::string, int>>& hosts) {
  json out = {{"launch", index}, {"hosts", json::array()}};
  int rank = 0;
  for (const auto& [name, ranks] : hosts) {
    json r = json::array();
    for (int k = 0; k < ranks; ++k) r.push_back(rank++);
    out["hosts"].push_back({{"name", name}, {"ranks", r}});
  }
  return out;
}

json provenance(const RankPlacement& planned, const std::vector<json>& launches) {
  return {{"placement_planned", to_json(planned)}, {"launches", launches}};
}

const RankPlacement kTwoPerNode{2, RankPlacement::Fill::node_after_node, "the platform's placement (p.yaml)"};

}  // namespace

TEST_CASE("placement mismatch: counts per host compared whatever the hosts' order", "[placement]") {
  CHECK(same_placement({2, 1}, {1, 2}));
  CHECK(same_placement({2, 2}, {2, 2}));
  CHECK_FALSE(same_placement({2, 2}, {4}));
  CHECK_FALSE(same_placement({2, 2}, {3, 1}));
  CHECK_FALSE(same_placement({4}, {2, 2}));
}

TEST_CASE("placement mismatch: a claim of 2 nodes x 2 ranks that ran on one host is found", "[placement]") {
  const json p = provenance(kTwoPerNode, {launch(0, {{"a", 2}}), launch(1, {{"vm", 4}}), launch(2, {{"vm", 3}})});
  const std::vector<PlacementMismatch> found = placement_mismatches(p);
  // np 2 fits one node at 2 per node: as planned. np 4 and np 3 were planned on 2 nodes.
  REQUIRE(found.size() == 2);
  CHECK(found[0].launch == 1);
  CHECK(found[0].np == 4);
  CHECK(found[0].planned == std::vector<std::size_t>{2, 2});
  CHECK(found[0].ran == std::vector<std::size_t>{4});
  CHECK(found[1].planned == std::vector<std::size_t>{2, 1});
  const std::string text = placement_mismatch_text(found);
  CHECK_THAT(text, Contains("np 4: planned 2 nodes x 2 ranks, ran on 1 node"));
  CHECK_THAT(text, Contains("np 3: planned 2 nodes (2 + 1 ranks), ran on 1 node"));
  CHECK_THAT(text, Contains("the plan's placement: the platform's placement (p.yaml)"));
  const json recorded = to_json(found);
  CHECK(recorded[0]["planned_ranks_per_host"] == json({2, 2}));
  CHECK(recorded[0]["ran_ranks_per_host"] == json({4}));
  CHECK(recorded[0]["ran"] == "1 node");
  // The same line for a report as its readers say it.
  CHECK(report_placement_mismatch_text({{"provenance", p}}) == text);
}

TEST_CASE("placement mismatch: ranks per host other than planned, and hosts the plan never assumed", "[placement]") {
  // 2 per node planned; the launcher put 3 on one host and 1 on another.
  CHECK(placement_mismatches(provenance(kTwoPerNode, {launch(0, {{"a", 3}, {"b", 1}})})).size() == 1);
  // One node assumed (no placement given), the ranks ran on two hosts.
  const auto found = placement_mismatches(provenance(RankPlacement{}, {launch(0, {{"a", 1}, {"b", 1}})}));
  REQUIRE(found.size() == 1);
  CHECK_THAT(placement_mismatch_text(found), Contains("np 2: planned 1 node, ran on 2 nodes x 1 ranks"));
}

TEST_CASE("placement mismatch: a placement that held, or nothing to compare, says nothing", "[placement]") {
  // Evenly over 2 nodes at 3 per node: np 5 is 3 + 2, listed by the workers in any host order.
  const RankPlacement evenly{3, RankPlacement::Fill::evenly, "slurm"};
  CHECK(placement_mismatches(provenance(evenly, {launch(0, {{"b", 2}, {"a", 3}})})).empty());
  CHECK(placement_mismatches(provenance(RankPlacement{}, {launch(0, {{"vm", 4}})})).empty());
  CHECK(placement_mismatches(provenance(kTwoPerNode, {launch(0, {{"a", 2}}), launch(1, {{"a", 2}, {"b", 2}})})).empty());
  // A report of an older pico (no placement_planned), or a launch that recorded no hosts.
  CHECK(placement_mismatches({{"launches", {launch(0, {{"vm", 4}})}}}).empty());
  CHECK(placement_mismatches(provenance(kTwoPerNode, {json{{"launch", 0}}})).empty());
  CHECK(placement_mismatch_text({}).empty());
  // A damaged placement_planned is no claim to compare with.
  CHECK(placement_mismatches({{"placement_planned", {{"ranks_per_node", -2}, {"fill", "evenly"}}},
                              {"launches", {launch(0, {{"vm", 4}})}}})
            .empty());
  CHECK(placement_mismatches({{"placement_planned", {{"ranks_per_node", 2}, {"fill", "sideways"}}},
                              {"launches", {launch(0, {{"vm", 4}})}}})
            .empty());
}

TEST_CASE("placement mismatch: placement_planned reads back as to_json wrote it", "[placement]") {
  for (const auto fill : {RankPlacement::Fill::node_after_node, RankPlacement::Fill::evenly, RankPlacement::Fill::cyclic}) {
    const RankPlacement p{4, fill, "src"};
    const auto back = placement_from_json(to_json(p));
    REQUIRE(back);
    CHECK(back->ranks_per_node == 4);
    CHECK(back->fill == fill);
    CHECK(back->source == "src");
  }
}
