// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include "analysis/report_facts.hpp"

using pico::report_facts;
using nlohmann::json;

TEST_CASE("a report's facts outside its cases are read once, as report_builder writes them", "[analysis]") {
  const json report = {
      {"platform", {{"name", "emulated-cluster"}}},
      {"run", {{"results_dir", "results/emulated-cluster/20261126T191246Z-aa0e3c93"}}},
      {"provenance",
       {{"mpi", {{"library", "openmpi"}, {"version", "4.1.4"}}},
        {"gpu", {{"nccl_build", "2.28.3"}}},
        {"hosts", json::array({{{"name", "pico-node1"}, {"ranks", {0}}}, {{"name", "pico-node2"}, {"ranks", {1}}}})},
        {"launches", json::array({{{"launch", 0}, {"hosts", json::array({json::object(), json::object()})}},
                                  {{"launch", 1}, {"hosts", json::array({json::object(), json::object(),
                                                                         json::object(), json::object()})}}})},
        {"profile", {{"format", "ompi-rules"}, {"library", "openmpi"}}}}}};
  const pico::ReportFacts f = report_facts(report);
  CHECK(f.platform == "emulated-cluster");
  CHECK(f.results_dir == "results/emulated-cluster/20261126T191246Z-aa0e3c93");
  CHECK(f.mpi_library == "openmpi");
  CHECK(f.mpi_version == "4.1.4");
  CHECK(f.nccl_build == "2.28.3");
  REQUIRE(f.hosts.size() == 2);
  CHECK(f.hosts[1].name == "pico-node2");
  CHECK(f.hosts[1].ranks == 1);
  CHECK(f.hosts_of_launch(1) == 4);
  CHECK(f.hosts_of_launch(7) == 2);  // a launch the report does not list: the first launch's hosts
  REQUIRE(f.profile.has_value());
  CHECK(f.profile->at("format") == "ompi-rules");
}

TEST_CASE("a report of an older pico, or with a key of the wrong type, reads as the defaults", "[analysis]") {
  const pico::ReportFacts bare = report_facts(json::object());
  CHECK(bare.platform.empty());
  CHECK(bare.mpi_library.empty());
  CHECK(bare.hosts.empty());
  CHECK(bare.hosts_of_launch(0) == 1);
  CHECK_FALSE(bare.profile.has_value());

  const pico::ReportFacts odd = report_facts({{"platform", "local"},
                                              {"provenance", {{"mpi", {{"version", 4}}}, {"hosts", "h0"},
                                                              {"profile", "p.json"}}}});
  CHECK(odd.platform.empty());
  CHECK(odd.mpi_library == "unknown");  // an mpi section without a library
  CHECK(odd.mpi_version.empty());
  CHECK(odd.hosts.empty());
  CHECK_FALSE(odd.profile.has_value());
}
