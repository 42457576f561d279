// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/input_error.hpp"
#include "tuning/comm_size_prediction.hpp"
#include "tuning/profile.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using test::profile_range;

namespace {

ProfileRule rule(int comm_size, std::vector<ProfileRange> ranges) {
  ProfileRule r;
  r.collective = Collective::allreduce;
  r.comm_size = comm_size;
  r.nodes = comm_size;
  r.ppn = 1;
  r.ranges = std::move(ranges);
  return r;
}

ProfileRange chosen(std::uint64_t lo, std::optional<std::uint64_t> hi, std::string algorithm, double low,
                    std::uint64_t evidence_bytes) {
  ProfileRange r = profile_range(lo, hi, std::move(algorithm));
  r.speedup = SpeedupInterval{low + 0.1, low, low + 0.2};
  r.measured_bytes = {evidence_bytes};
  r.evidence = {{"run", "case", evidence_bytes, 1e-5, 2e-5}};
  return r;
}

// Measured on 2 and 4 nodes: recursive doubling for small sizes on both;
// above, ring on 2 nodes and Rabenseifner on 4.
TunedProfile measured() {
  TunedProfile p;
  p.library = {"mpi", "openmpi", "4.1.4"};
  p.platform = "emulated-cluster";
  p.rules = {rule(2, {chosen(0, 1023, "recursive_doubling", 1.3, 64), chosen(1024, {}, "ring", 1.1, 65536)}),
             rule(4, {chosen(0, 511, "recursive_doubling", 1.2, 128), chosen(512, {}, "rabenseifner", 1.4, 65536)})};
  return p;
}

const ProfileRule& at(const TunedProfile& p, int comm_size) {
  for (const ProfileRule& r : p.rules)
    if (r.comm_size == comm_size) return r;
  FAIL("no rule for np " << comm_size);
  return p.rules.front();
}

}  // namespace

TEST_CASE("a communicator size not measured keeps the choices both neighbours made, the nearer one's elsewhere",
          "[tuning]") {
  TunedProfile p = measured();
  const std::vector<int> sizes{8, 3, 4, 8};  // a size given twice is predicted once
  const std::vector<std::string> notes = add_predicted_rules(p, sizes);
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "allreduce np 8: predicted from np 2 and 4 (2 range(s); where they differ, np 4's choice)");
  CHECK(notes[2] == "allreduce np 4: measured, not predicted");
  check_profile(p, "test");  // contiguous, first at 0, last unbounded, no duplicate rule

  for (int n : {3, 8}) {  // 3 is nearer to 4 than to 2 in ratio
    const ProfileRule& r = at(p, n);
    CHECK(r.predicted_from == std::vector<int>{2, 4});
    CHECK(r.nodes == n);
    REQUIRE(r.ranges.size() == 2);
    CHECK(r.ranges[0].algorithm == "recursive_doubling");  // both chose it below 512 B
    CHECK(r.ranges[0].max_bytes == std::optional<std::uint64_t>{511});
    CHECK(r.ranges[0].speedup->low == 1.2);       // the weaker of the two
    CHECK(r.ranges[0].measured_bytes.empty());    // nothing was measured at this size
    CHECK(r.ranges[0].evidence.size() == 2);      // np 2's at 64 B and np 4's at 128 B
    CHECK(r.ranges[1].algorithm == "rabenseifner");  // ring on 2 nodes, Rabenseifner on 4: np 4's
    CHECK(r.ranges[1].min_bytes == 512);
    CHECK_FALSE(r.ranges[1].max_bytes.has_value());
    CHECK(r.ranges[1].speedup->low == 1.4);
    REQUIRE(r.ranges[1].evidence.size() == 1);    // np 4's only: np 2 chose ring
    CHECK(r.ranges[1].evidence[0].bytes == 65536);
  }
  // The profile reads back with the marks, and exports choose from the predicted rule at np 8.
  const TunedProfile back = profile_from_json(to_json(p), "p.json");
  CHECK(at(back, 8).predicted_from == std::vector<int>{2, 4});
  CHECK(at(back, 2).predicted_from.empty());
  CHECK(back.choose(Collective::allreduce, 8, 100)->algorithm == "recursive_doubling");
  CHECK(back.choose(Collective::allreduce, 8, 4096)->algorithm == "rabenseifner");
}

TEST_CASE("between two measured sizes, the nearer one's choice fills where they differ", "[tuning]") {
  TunedProfile p = measured();
  p.rules[1].comm_size = 16;  // measured at 2 and 16 nodes
  p.rules[1].nodes = 16;
  const std::vector<int> three{3};
  add_predicted_rules(p, three);
  const ProfileRule& r = at(p, 3);
  CHECK(r.predicted_from == std::vector<int>{2, 16});
  // 512 B to 1 KiB, where np 16 chose Rabenseifner, takes np 2's recursive doubling (3 is nearer to 2).
  REQUIRE(r.ranges.size() == 2);
  CHECK(r.ranges[0].algorithm == "recursive_doubling");
  CHECK(r.ranges[0].max_bytes == std::optional<std::uint64_t>{1023});
  CHECK(r.ranges[1].algorithm == "ring");
}

TEST_CASE("a size is predicted only from two measured communicator sizes that fill its nodes", "[tuning]") {
  TunedProfile one = measured();
  one.rules.pop_back();
  const std::vector<int> eight{8};
  const auto notes = add_predicted_rules(one, eight);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("needs measured rules at two communicator sizes") != std::string::npos);
  CHECK(one.rules.size() == 1);

  TunedProfile two_per_node = measured();
  for (ProfileRule& r : two_per_node.rules) r.ppn = 2, r.nodes = r.comm_size / 2;
  const std::vector<int> five{5};
  CHECK(add_predicted_rules(two_per_node, five).at(0).find("5 ranks do not fill nodes of 2") != std::string::npos);

  // One node, more ranks per node: the prediction stays on one node.
  TunedProfile one_node = measured();
  for (ProfileRule& r : one_node.rules) r.nodes = 1, r.ppn = r.comm_size;
  const std::vector<int> six{6};
  add_predicted_rules(one_node, six);
  CHECK(at(one_node, 6).nodes == 1);
  CHECK(at(one_node, 6).ppn == 6);
}

TEST_CASE("a profile's predicted_from must hold communicator sizes", "[tuning]") {
  nlohmann::json j = to_json(measured());
  j["rules"][0]["predicted_from"] = {2, 0};
  try {
    profile_from_json(j, "p.json");
    FAIL("accepted a communicator size of 0");
  } catch (const InputError& e) {
    CHECK(e.message.find("rules/0/predicted_from/1: must be a measured communicator size") != std::string::npos);
  }
}
