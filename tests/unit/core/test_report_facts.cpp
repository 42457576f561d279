// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <fstream>

#include "core/report_facts.hpp"

using pico::report_facts;
using nlohmann::json;

TEST_CASE("a report's facts outside its cases are read once, as report_builder writes them", "[report_facts]") {
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

TEST_CASE("a report's build, files, run and provenance read as types (tests/data/report-example.json)", "[report_facts]") {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  const pico::ReportFacts f = report_facts(json::parse(in));
  CHECK(f.pico_version == "0.1.0");
  CHECK(f.pico_build_type == "RelWithDebInfo");
  CHECK(f.experiment.name == "example");
  CHECK(f.experiment.path == "configs/examples/example.yaml");
  CHECK(f.platform_path == "platforms/local.yaml");
  CHECK(f.wall_s == 12.5);
  CHECK(f.launches == 2);
  CHECK(f.mpi_standard == "3.1");
  REQUIRE(f.hosts.size() == 1);
  CHECK(f.hosts[0].ranks == 4);
  REQUIRE(f.hosts[0].topology.has_value());
  CHECK(f.hosts[0].topology->cores == 8);
  REQUIRE(f.launch_commands.size() == 2);
  CHECK(f.launch_commands[1].back() == "1");
  CHECK(f.env.at("OMPI_MCA_btl") == "self,vader");
  CHECK(f.user == "alice");
  CHECK_FALSE(f.gpu_devices.has_value());
}

TEST_CASE("a report of an older pico, or with a key of the wrong type, reads as the defaults", "[report_facts]") {
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
  CHECK_FALSE(odd.wall_s.has_value());
  CHECK(odd.launch_commands.empty());
}
