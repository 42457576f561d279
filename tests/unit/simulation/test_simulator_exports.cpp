// SPDX-License-Identifier: BSD-3-Clause
// A tuned profile as Schedgen2's --ptrn-config and as ASTRA-sim's inputs.
#include <catch2/catch.hpp>

#include "core/input_error.hpp"
#include "tuning_fixtures.hpp"
#include "simulation/simulator_exports.hpp"

using namespace pico;

namespace {

using test::profile_range;

TunedProfile openmpi_profile() {
  TunedProfile p;
  p.library = {"mpi", "openmpi", "4.1.4"};
  ProfileRule small;
  small.collective = Collective::allreduce;
  small.comm_size = 4;
  small.ranges = {profile_range(0, 4095, "recursive_doubling"), profile_range(4096, std::nullopt, "ring")};
  ProfileRule large = small;
  large.comm_size = 16;
  large.ranges = {profile_range(0, 65535, "default"), profile_range(65536, std::nullopt, "nonoverlapping")};
  ProfileRule a2a;
  a2a.collective = Collective::alltoall;
  a2a.comm_size = 16;
  a2a.ranges = {profile_range(0, std::nullopt, "pairwise")};
  p.rules = {small, large, a2a};
  return p;
}

}  // namespace

TEST_CASE("schedgen2 --ptrn-config: allreduce ranges with exclusive upper bounds", "[simulation]") {
  std::vector<std::string> skipped;
  const auto config = schedgen2_ptrn_config(openmpi_profile(), "p.json", &skipped);
  REQUIRE(config.size() == 2);
  CHECK(config[0]["algorithm"] == "recdoub");
  CHECK(config[0]["ptrn"] == "allreduce");
  CHECK(config[0]["lower_bounds"]["comm_size"] == 4);
  CHECK(config[0]["upper_bounds"]["comm_size"] == 16);  // up to the next rule's comm size
  CHECK(config[0]["upper_bounds"]["datasize"] == 4096);
  CHECK(config[1]["algorithm"] == "ring");
  CHECK(config[1]["lower_bounds"]["datasize"] == 4096);
  CHECK(config[1]["upper_bounds"]["datasize"] == -1);
  // The 16-rank rule's default range, its nonoverlapping (reduce_bcast: no Schedgen2 algorithm) and the alltoall.
  CHECK(skipped.size() == 3);
}

TEST_CASE("ASTRA-sim inputs: the choice for the largest messages, per dimension", "[simulation]") {
  LogGPModel model = default_model();
  const AstraSimInputs in = astra_sim_inputs(openmpi_profile(), "p.json", model, 16);
  CHECK(in.system["all-reduce-implementation"] == nlohmann::json::array({"doubleBinaryTree"}));  // nonoverlapping
  CHECK(in.system["all-to-all-implementation"] == nlohmann::json::array({"direct"}));
  CHECK(in.system["all-gather-implementation"] == nlohmann::json::array({"ring"}));  // no rule: ring, noted
  CHECK(in.network_yaml.find("npus_count: [ 16 ]") != std::string::npos);
  // G = 40 ps/B is 25 B/ns; ASTRA-sim reads its GB/s as 2^30 B: 25e9 / 2^30.
  CHECK(in.network_yaml.find("bandwidth: [ 23.283 ]") != std::string::npos);
  // A Switch message crosses 2 links: each carries half of L + 2o = 3.7 + 0.4 us.
  CHECK(in.network_yaml.find("latency: [ 2050.0 ]") != std::string::npos);
  CHECK(in.network_yaml.find("topology: [ Switch ]") != std::string::npos);
  CHECK(in.memory["memory-type"] == "NO_MEMORY_EXPANSION");
  CHECK(in.system["preferred-dataset-splits"] == 1);  // chunking multiplies latency-bound collectives
  CHECK(astra_sim_inputs(openmpi_profile(), "p.json", model, 16, 4).system["preferred-dataset-splits"] == 4);
  const AstraSimInputs small = astra_sim_inputs(openmpi_profile(), "p.json", model, 4);
  CHECK(small.system["all-reduce-implementation"] == nlohmann::json::array({"ring"}));
}

TEST_CASE("ASTRA-sim inputs: every choice the system file cannot carry is noted", "[simulation]") {
  const LogGPModel model = default_model();
  const AstraSimInputs in = astra_sim_inputs(openmpi_profile(), "p.json", model, 4);
  std::string all;
  for (const std::string& n : in.notes) all += n + "\n";
  INFO(all);
  // The 4-rank allreduce rule chose recursive doubling below 4 KiB and ring above: the first is dropped, and said.
  CHECK_THAT(all, Catch::Matchers::Contains("allreduce on 4 ranks, 0-4095 B: recursive_doubling is not carried"));
  // A model without a per-byte cost gets a bandwidth ASTRA-sim accepts, and a note.
  LogGPModel free = model;
  free.params.G = 0;
  const AstraSimInputs unbounded = astra_sim_platform(free, 4, 1);
  REQUIRE(unbounded.notes.size() == 1);
  CHECK_THAT(unbounded.notes[0], Catch::Matchers::Contains("G = 0"));
  CHECK(unbounded.network_yaml.find("bandwidth: [ 1000000.000 ]") != std::string::npos);
  CHECK(astra_sim_platform(model, 4, 1).notes.empty());
}

TEST_CASE("a profile of a library without reference equivalents is refused", "[simulation]") {
  TunedProfile p = openmpi_profile();
  p.library = {"nccl", "nccl", "2.21"};
  CHECK_THROWS_AS(schedgen2_ptrn_config(p, "p.json"), InputError);
  CHECK_THROWS_AS(astra_sim_inputs(p, "p.json", default_model(), 16), InputError);
}
