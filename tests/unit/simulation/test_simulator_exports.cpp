// SPDX-License-Identifier: BSD-3-Clause
// A tuned profile as Schedgen2's --ptrn-config and as ASTRA-sim's inputs.
#include <catch2/catch.hpp>

#include "simulation/simulator_exports.hpp"
#include "support/input_error.hpp"
#include "tuning/exported_choice.hpp"
#include "tuning_fixtures.hpp"

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
  // Open MPI 4.1's classic file: the first allreduce block serves smaller communicators too, up to the next rule's.
  CHECK(config[0]["lower_bounds"]["comm_size"] == 1);
  CHECK(config[0]["upper_bounds"]["comm_size"] == 16);
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
  // The 4-rank rule's two ranges, then the 16-rank default cut where what it ran changes, at 16 ranks only: on
  // the larger communicators the rule drives, the default is tuned's own decision there, which no report saw
  // (ATLAHS's, as pico replay and pico predict --profile read it).
  REQUIRE(config.size() == 5);
  CHECK(config[2]["algorithm"] == "recdoub");
  CHECK(config[2]["upper_bounds"]["datasize"] == 32768);
  CHECK(config[2]["lower_bounds"]["comm_size"] == 16);
  CHECK(config[2]["upper_bounds"]["comm_size"] == 17);
  CHECK(config[3]["algorithm"] == "ring");
  CHECK(config[3]["lower_bounds"]["datasize"] == 32768);
  CHECK(config[4]["algorithm"] == "recdoub");
  CHECK(config[4]["lower_bounds"]["comm_size"] == 17);
  CHECK(config[4]["upper_bounds"]["comm_size"] == -1);
  CHECK(config[4]["upper_bounds"]["datasize"] == -1);
}

TEST_CASE("ASTRA-sim inputs: a reduction costs the model's reduce_ps_per_byte natively too (issue 50)", "[simulation]") {
  // ASTRA-sim charges a native reduction 3 x bytes / local-mem-bw ns: 3000 / 250 ps/B = 12.
  LogGPModel model = default_model();
  CHECK(astra_sim_platform(model, 4, 1).system["local-mem-bw"] == 12.0);
  model.params.reduce_ps_per_byte = 1000;
  CHECK(astra_sim_platform(model, 4, 1).system["local-mem-bw"] == 3.0);
}

namespace {

// Schedgen2's reading of --ptrn-config (mpi_colls.py, mpi_communication_pattern_selection): an entry holds where
// every bound does (lower inclusive, upper exclusive, -1 unbounded). The algorithm of the one entry holding an
// allreduce of `bytes` on np ranks, "" where none does; two entries holding it fail the test.
std::string schedgen2_pick(const nlohmann::json& config, int np, std::uint64_t bytes) {
  const auto holds = [](const nlohmann::json& lo, const nlohmann::json& hi, long long v) {
    return (lo == -1 || v >= lo.get<long long>()) && (hi == -1 || v < hi.get<long long>());
  };
  std::string picked;
  int held = 0;
  for (const nlohmann::json& e : config)
    if (e["ptrn"] == "allreduce" && holds(e["lower_bounds"]["comm_size"], e["upper_bounds"]["comm_size"], np) &&
        holds(e["lower_bounds"]["datasize"], e["upper_bounds"]["datasize"], static_cast<long long>(bytes))) {
      picked = e["algorithm"].get<std::string>();
      ++held;
    }
  CHECK(held <= 1);
  return picked;
}

// The Schedgen2 algorithm of what exported_rule (pico predict --profile's resolution) says runs there.
std::string predicted_schedgen2(const TunedProfile& p, int np, std::uint64_t bytes) {
  const std::string ran = exported_rule(p, Collective::allreduce, np).algorithm_at(bytes);
  if (ran == "default" || ran == "recursive_doubling" || ran == "rabenseifner") return "recdoub";  // ATLAHS's default
  if (ran == "ring" || ran == "segmented_ring") return "ring";
  return "";  // nonoverlapping (reduce_bcast): no Schedgen2 algorithm
}

// allreduce ring at 4 ranks, and nothing else: np 2 and 3 lie below the smallest rule.
TunedProfile ring_at_four(const std::string& library, const std::string& version) {
  TunedProfile p = test::openmpi_profile_of(
      {test::profile_rule(Collective::allreduce, 4, {profile_range(0, std::nullopt, "ring")})});
  p.library = {"mpi", library, version};
  return p;
}

}  // namespace

// Issue 66, item 7: the simulator exports read the nearest rule (TunedProfile::choose), so below the smallest rule
// they gave its choice where the library runs its own decision and pico predict --profile says "default".
TEST_CASE("schedgen2 --ptrn-config applies each rule where the profile's export does, as predict says (issue 66)",
          "[simulation]") {
  // MPICH's export keys each rule on its communicator size alone: np 2, 3 and 5 run MPICH's own decision,
  // ATLAHS's recursive doubling in a simulation (as a "default" range is written); before, np 2 and 3 matched no
  // entry (Schedgen2 raises on that) and np 5 took the 4-rank rule's ring.
  const TunedProfile mpich = ring_at_four("mpich", "4.2.0");
  const auto config = schedgen2_ptrn_config(mpich, "p.json");
  for (const int np : {2, 3, 5, 8}) {
    INFO("np " << np);
    CHECK(schedgen2_pick(config, np, 1024) == "recdoub");
    CHECK(exported_rule(mpich, Collective::allreduce, np).rule == nullptr);
  }
  CHECK(schedgen2_pick(config, 4, 1024) == "ring");
  // At every communicator size and message size, Schedgen2 runs what predict says the library runs: MPICH, Open
  // MPI 6 (JSON rules of exact sizes) and Open MPI 4.1 (the classic file, whose first block serves smaller
  // communicators), and the two-rule profile above with a "default" range.
  TunedProfile recorded = openmpi_profile();
  recorded.rules[1].ranges[0].default_ran = {{1024, "ring"}};
  for (const TunedProfile& p :
       {mpich, ring_at_four("openmpi", "6.0.0"), ring_at_four("openmpi", "4.1.4"), openmpi_profile(), recorded}) {
    const auto table = schedgen2_ptrn_config(p, "p.json");
    for (int np = 1; np <= 40; ++np)
      for (const std::uint64_t bytes : {0ULL, 1024ULL, 4095ULL, 4096ULL, 65535ULL, 65536ULL, 1ULL << 30}) {
        INFO(p.library.name << " " << p.library.version << " np " << np << ", " << bytes << " B");
        CHECK(schedgen2_pick(table, np, bytes) == predicted_schedgen2(p, np, bytes));
      }
  }
  CHECK(schedgen2_pick(schedgen2_ptrn_config(ring_at_four("openmpi", "4.1.4"), "p.json"), 2, 1024) == "ring");
}

TEST_CASE("ASTRA-sim inputs apply the rule the profile's export applies on the NPUs, as predict says (issue 66)",
          "[simulation]") {
  // Open MPI 4.1's allgather (keyed on the block times the communicator size): ompi-rules writes a default block
  // below the smallest rule, so on 2 or 3 ranks Open MPI runs its own decision: ATLAHS's Bruck in a
  // simulation (halvingDoubling; ring on 3 NPUs, where halvingDoubling finishes no rank). Before, the 4-rank
  // rule's linear (reference ring: ASTRA-sim's ring) was written for 2 and 3 NPUs.
  const TunedProfile p = test::openmpi_profile_of(
      {test::profile_rule(Collective::allgather, 4, {profile_range(0, std::nullopt, "linear")})});
  const LogGPModel model = default_model();
  const auto notes_of = [](const AstraSimInputs& in) {
    std::string all;
    for (const std::string& n : in.notes) all += n + "\n";
    return all;
  };
  CHECK(astra_sim_inputs(p, "p.json", model, 4).system["all-gather-implementation"] ==
        nlohmann::json::array({"ring"}));  // linear stands for reference ring
  const AstraSimInputs two = astra_sim_inputs(p, "p.json", model, 2);
  CHECK(exported_rule(p, Collective::allgather, 2).rule == nullptr);
  CHECK(two.system["all-gather-implementation"] == nlohmann::json::array({"halvingDoubling"}));
  CHECK_THAT(notes_of(two), Catch::Matchers::Contains("allgather: the library's own decision on 2 NPUs (np 2 is below "
                                                      "its smallest rule (np 4)") &&
                                Catch::Matchers::Contains("ATLAHS's bruck"));
  const AstraSimInputs three = astra_sim_inputs(p, "p.json", model, 3);
  CHECK(three.system["all-gather-implementation"] == nlohmann::json::array({"ring"}));
  CHECK_THAT(notes_of(three), Catch::Matchers::Contains("np 3 is below its smallest rule (np 4)") &&
                                  Catch::Matchers::Contains("halvingDoubling on 3 NPUs, not a power of two"));
  // MPICH keys its allreduce rule on 4 ranks alone: on 2 NPUs, MPICH's own decision (recursive doubling:
  // halvingDoubling), not the rule's ring.
  const AstraSimInputs mpich = astra_sim_inputs(ring_at_four("mpich", "4.2.0"), "p.json", model, 2);
  CHECK(mpich.system["all-reduce-implementation"] == nlohmann::json::array({"halvingDoubling"}));
}
