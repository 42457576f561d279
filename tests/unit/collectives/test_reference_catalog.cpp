// SPDX-License-Identifier: BSD-3-Clause
// configs/catalog/reference.yaml is the data face of the reference dispatch
// table: the same algorithms per collective, in the same order, with
// segment_size exactly where the algorithm takes it.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"

using namespace pico;

TEST_CASE("the reference catalogue lists exactly the table's algorithms", "[reference]") {
  const YAML::Node root = YAML::LoadFile(std::string(PICO_SOURCE_DIR) + "/configs/catalog/reference.yaml");
  CHECK(root["library"].as<std::string>() == "reference");
  CHECK(root["selection"]["mechanism"].as<std::string>() == "builtin");
  std::size_t listed_collectives = 0;
  for (Collective c : all_collectives()) {
    INFO(name(c));
    // A collective the reference backend lacks says why, and the table has nothing for it.
    if (root["unsupported"][std::string(name(c))].IsDefined()) {
      CHECK_FALSE(root["unsupported"][std::string(name(c))].as<std::string>().empty());
      CHECK_FALSE(root["collectives"][std::string(name(c))].IsDefined());
      CHECK(reference_algorithm_names(c).empty());
      continue;
    }
    ++listed_collectives;
    const YAML::Node algorithms = root["collectives"][std::string(name(c))]["algorithms"];
    REQUIRE(algorithms.IsSequence());
    std::vector<std::string> listed;
    for (const auto& a : algorithms) {
      const auto alg = a["name"].as<std::string>();
      listed.push_back(alg);
      INFO(alg);
      CHECK_FALSE(a["description"].as<std::string>().empty());
      CHECK_FALSE(a["cost"].as<std::string>().empty());
      const auto* traits = reference_algorithm_traits(c, alg);
      REQUIRE(traits != nullptr);
      const bool has_segment = a["parameters"] && a["parameters"].size() == 1 &&
                               a["parameters"][0].as<std::string>() == "segment_size";
      CHECK(has_segment == traits->segmented);
    }
    CHECK(listed == reference_algorithm_names(c));
  }
  CHECK(root["collectives"].size() == listed_collectives);
  CHECK(root["unsupported"]["sendrecv"].IsDefined());
}
