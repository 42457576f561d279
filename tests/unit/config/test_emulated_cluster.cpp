// SPDX-License-Identifier: BSD-3-Clause
// The emulated cluster's description (src/config/emulated_cluster.hpp) and the
// platform key that names it.
#include <catch2/catch.hpp>

#include <string>

#include "config/emulated_cluster.hpp"
#include "config/platform.hpp"
#include "config_errors.hpp"
#include "support/input_error.hpp"

using namespace pico;
using Catch::Matchers::Contains;

namespace {

// What scripts/emulated-cluster.sh start --nodes 2 --ppn 2 --racks 2 --uplink 100mbit --node-rate 2=500mbit
// writes on a machine of 2 cpus.
const std::string kTwoRacks = R"({
  "emulated": true,
  "name": "pico",
  "tool": "scripts/emulated-cluster.sh",
  "shaping": "tc tbf both directions of each node link, burst 256kb latency 50ms; no added latency",
  "ppn": 2,
  "slurm": false,
  "nodes": [
    {"name": "pico-node1", "address": "127.77.0.1", "rack": 1, "rate": "1gbit", "rate_bps": 1000000000, "cpus": "0,1"},
    {"name": "pico-node2", "address": "127.77.0.2", "rack": 2, "rate": "500mbit", "rate_bps": 500000000, "cpus": "0,1"}
  ],
  "uplink": {"between_racks": [1, 2], "rate": "100mbit", "rate_bps": 100000000}
}
)";

}  // namespace

TEST_CASE("an emulated cluster description is read whole", "[config]") {
  const EmulatedCluster c = parse_emulated_cluster(kTwoRacks, "cluster.json");
  CHECK(c.name == "pico");
  CHECK(c.ppn == 2);
  CHECK_FALSE(c.slurm);
  REQUIRE(c.nodes.size() == 2);
  CHECK(c.nodes[1].name == "pico-node2");
  CHECK(c.nodes[1].address == "127.77.0.2");
  CHECK(c.nodes[1].rack == 2);
  CHECK(c.nodes[1].link.rate == "500mbit");
  CHECK(c.nodes[1].link.rate_bps == 5e8);
  CHECK(c.nodes[1].cpus == "0,1");
  REQUIRE(c.uplink);
  CHECK(c.uplink->rate_bps == 1e8);
  const auto j = to_json(c);
  CHECK(j.at("emulated") == true);
  CHECK(j.at("nodes").at(0).at("rate") == "1gbit");
  CHECK(parse_emulated_cluster(j.dump(), "again.json").nodes[1].link.rate_bps == 5e8);
  CHECK(parse_emulated_cluster(j.dump(), "again.json").nodes[0].cpus == "0,1");
  // A description from before pinning (or --no-pin) names no cpus: any.
  std::string unpinned = kTwoRacks;
  for (std::size_t at; (at = unpinned.find(R"(, "cpus": "0,1")")) != std::string::npos;) unpinned.erase(at, 15);
  CHECK(parse_emulated_cluster(unpinned, "old.json").nodes[0].cpus.empty());
}

TEST_CASE("a broken or missing emulated cluster description is an InputError", "[config]") {
  const auto parse = [](const std::string& text, const char* file) { parse_emulated_cluster(text, file); };
  CHECK_THAT(test::error_of(parse, "{not json", "c.json").message, Contains("not an emulated cluster description"));
  CHECK_THAT(test::error_of(parse, R"({"emulated": false})", "c.json").message, Contains("\"emulated\" is not true"));
  std::string no_nodes = kTwoRacks;
  no_nodes.replace(no_nodes.find("\"nodes\""), 7, "\"nodez\"");
  CHECK(test::error_of(parse, no_nodes, "c.json").file == "c.json");
  std::string zero_rate = kTwoRacks;
  zero_rate.replace(zero_rate.find("500000000"), 9, "0");
  CHECK_THAT(test::error_of(parse, zero_rate, "c.json").message, Contains("not positive"));
  const auto missing = test::error_of_load([](const std::string& p) { read_emulated_cluster(p); },
                                           "/nonexistent/pico-cluster/cluster.json");
  CHECK_THAT(missing.message, Contains("not running"));
  CHECK_THAT(missing.hint, Contains("scripts/emulated-cluster.sh start"));
}

TEST_CASE("a platform names its emulated cluster's description", "[config]") {
  const Platform p = parse_platform("name: c\nemulated: /run/pico-cluster/cluster.json\n", "p.yaml");
  CHECK(p.emulated == "/run/pico-cluster/cluster.json");
  CHECK(parse_platform("name: c\n", "p.yaml").emulated.empty());
  const auto parse = [](const std::string& text, const char* file) { parse_platform(text, file); };
  CHECK(test::error_of(parse, "name: c\nemulated: \"\"\n", "p.yaml").line == 2);
}
