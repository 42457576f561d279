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
  REQUIRE(config.size() == 3);
  CHECK(config[0]["algorithm"] == "recdoub");
  CHECK(config[0]["ptrn"] == "allreduce");
  CHECK(config[0]["lower_bounds"]["comm_size"] == 4);
  CHECK(config[0]["upper_bounds"]["comm_size"] == 16);  // up to the next rule's comm size
  CHECK(config[0]["upper_bounds"]["datasize"] == 4096);
  CHECK(config[1]["algorithm"] == "ring");
  CHECK(config[1]["lower_bounds"]["datasize"] == 4096);
  CHECK(config[1]["upper_bounds"]["datasize"] == -1);
  // The 16-rank rule's default range: ATLAHS's recursive doubling, as a replay runs it (issue 50).
  CHECK(config[2]["algorithm"] == "recdoub");
  CHECK(config[2]["upper_bounds"]["datasize"] == 65536);
  // Its nonoverlapping (reduce_bcast: no Schedgen2 algorithm) and the alltoall.
  CHECK(skipped.size() == 2);
}

TEST_CASE("ASTRA-sim inputs: the choice for the largest messages, per dimension", "[simulation]") {
  LogGPModel model = default_model();
  const AstraSimInputs in = astra_sim_inputs(openmpi_profile(), "p.json", model, 16);
  CHECK(in.system["all-reduce-implementation"] == nlohmann::json::array({"doubleBinaryTree"}));  // nonoverlapping
  CHECK(in.system["all-to-all-implementation"] == nlohmann::json::array({"direct"}));
  // No rule: ATLAHS's Bruck, as pico replay runs it, is ASTRA-sim's halvingDoubling (noted).
  CHECK(in.system["all-gather-implementation"] == nlohmann::json::array({"halvingDoubling"}));
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

TEST_CASE("simulator exports resolve \"default\" by what the library's default ran, else ATLAHS's rule (issue 50)",
          "[simulation]") {
  TunedProfile p = openmpi_profile();
  ProfileRule& rule = p.rules[1];  // allreduce, 16 ranks
  rule.ranges = {profile_range(0, std::nullopt, "default")};
  const LogGPModel model = default_model();
  auto notes_of = [](const AstraSimInputs& in) {
    std::string all;
    for (const std::string& n : in.notes) all += n + "\n";
    return all;
  };
  // Nothing recorded: ATLAHS's recursive doubling, as pico replay runs it.
  AstraSimInputs in = astra_sim_inputs(p, "p.json", model, 16);
  CHECK(in.system["all-reduce-implementation"] == nlohmann::json::array({"halvingDoubling"}));
  CHECK_THAT(notes_of(in), Catch::Matchers::Contains("allreduce: the library default, and the reports do not say what "
                                                     "it ran: ATLAHS's recursive_doubling"));
  // halvingDoubling on 24 NPUs (the 16-rank rule applies) leaves every rank unfinished in ASTRA-sim: ring, noted.
  in = astra_sim_inputs(p, "p.json", model, 24);
  CHECK(in.system["all-reduce-implementation"] == nlohmann::json::array({"ring"}));
  CHECK_THAT(notes_of(in), Catch::Matchers::Contains("allreduce: ASTRA-sim's halvingDoubling on 24 NPUs, not a power of two"));
  // Recorded: recursive doubling to 32 KiB, ring above; the system file holds the largest sizes' ring.
  rule.ranges[0].measured_bytes = {1024, 1048576};
  rule.ranges[0].default_ran = {{1024, "recursive_doubling"}, {1048576, "ring"}};
  in = astra_sim_inputs(p, "p.json", model, 16);
  CHECK(in.system["all-reduce-implementation"] == nlohmann::json::array({"ring"}));
  CHECK_THAT(notes_of(in), Catch::Matchers::Contains("allreduce on 16 ranks, 0-32767 B: default (ran recursive_doubling) "
                                                     "is not carried"));
  std::vector<std::string> skipped;
  const auto config = schedgen2_ptrn_config(p, "p.json", &skipped);
  // The 4-rank rule's two ranges, then the 16-rank default cut where what it ran changes.
  REQUIRE(config.size() == 4);
  CHECK(config[2]["algorithm"] == "recdoub");
  CHECK(config[2]["upper_bounds"]["datasize"] == 32768);
  CHECK(config[3]["algorithm"] == "ring");
  CHECK(config[3]["lower_bounds"]["datasize"] == 32768);
}

TEST_CASE("ASTRA-sim inputs: a reduction costs the model's reduce_ps_per_byte natively too (issue 50)", "[simulation]") {
  // ASTRA-sim charges a native reduction 3 x bytes / local-mem-bw ns: 3000 / 250 ps/B = 12.
  LogGPModel model = default_model();
  CHECK(astra_sim_platform(model, 4, 1).system["local-mem-bw"] == 12.0);
  model.params.reduce_ps_per_byte = 1000;
  CHECK(astra_sim_platform(model, 4, 1).system["local-mem-bw"] == 3.0);
}
