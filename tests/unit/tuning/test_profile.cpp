#include <catch2/catch.hpp>

#include <fstream>

#include "core/input_error.hpp"
#include "scratch_dir.hpp"
#include "tuning_fixtures.hpp"
#include "tuning/profile.hpp"

using namespace pico;
using nlohmann::json;

namespace {

using test::profile_range;

// allreduce on 4 ranks: recursive doubling to 64 KiB - 1, ring from there;
// on 8 ranks the default throughout; bcast on 4 ranks.
TunedProfile sample() {
  TunedProfile p;
  p.library = {"mpi", "openmpi", "4.1.4"};
  p.platform = "local";
  p.reports = {"20261124T000000Z-abcd"};
  ProfileRule four{Collective::allreduce, 4, 1, 4, {profile_range(0, 65535, "recursive_doubling"), profile_range(65536, {}, "ring")}};
  four.ranges[1].params = {{"segment_size", 65536}};
  four.ranges[1].measured_bytes = {65536, 1048576};
  four.ranges[1].speedup = SpeedupInterval{1.3, 1.2, 1.4};
  four.ranges[1].evidence = {{"20261124T000000Z-abcd", "0123456789abcdef", 1048576, 0.001, 0.0013}};
  p.rules = {four, ProfileRule{Collective::allreduce, 8, 2, 4, {profile_range(0, {}, "default")}},
             ProfileRule{Collective::bcast, 4, 1, 4, {profile_range(0, {}, "binomial")}}};
  return p;
}

std::string error_text(const json& j) {
  try {
    profile_from_json(j, "p.json");
  } catch (const InputError& e) {
    CHECK(e.file == "p.json");
    return e.message;
  }
  FAIL("accepted:\n" << j.dump(2));
  return {};
}

}  // namespace

TEST_CASE("a profile survives its JSON form", "[tuning]") {
  const TunedProfile p = sample();
  const json j = to_json(p);
  CHECK(j.at("schema") == kProfileSchema);
  const TunedProfile back = profile_from_json(j, "p.json");
  CHECK(to_json(back) == j);
  REQUIRE(back.rules.size() == 3);
  CHECK(back.rules[0].ranges[1].params.at("segment_size") == 65536);
  CHECK(back.rules[0].ranges[1].speedup->low == 1.2);
  CHECK(back.rules[0].ranges[1].evidence.at(0).default_seconds == 0.0013);
  CHECK_FALSE(back.rules[1].ranges[0].max_bytes.has_value());
}

TEST_CASE("choose: the range for a size, with Open MPI's communicator-size rule", "[tuning]") {
  const TunedProfile p = sample();
  CHECK(p.choose(Collective::allreduce, 4, 0)->algorithm == "recursive_doubling");
  CHECK(p.choose(Collective::allreduce, 4, 65535)->algorithm == "recursive_doubling");
  CHECK(p.choose(Collective::allreduce, 4, 65536)->algorithm == "ring");
  CHECK(p.choose(Collective::allreduce, 4, std::uint64_t{1} << 40)->algorithm == "ring");
  CHECK(p.choose(Collective::allreduce, 2, 8)->algorithm == "recursive_doubling");  // smaller: the first rule
  CHECK(p.choose(Collective::allreduce, 7, 8)->algorithm == "recursive_doubling");  // the last rule <= 7
  CHECK(p.choose(Collective::allreduce, 4096, 8)->algorithm == "default");          // the last rule <= 4096
  CHECK(p.choose(Collective::bcast, 64, 1 << 20)->algorithm == "binomial");
  CHECK(p.choose(Collective::alltoall, 4, 8) == nullptr);
}

TEST_CASE("choose prefers the rule of the same node count among equal sizes", "[tuning]") {
  TunedProfile p = sample();
  p.rules.push_back(ProfileRule{Collective::allreduce, 4, 4, 1, {profile_range(0, {}, "ring")}});
  CHECK(p.choose(Collective::allreduce, 4, 8)->algorithm == "recursive_doubling");
  CHECK(p.choose(Collective::allreduce, 4, 8, 4)->algorithm == "ring");
  CHECK(p.choose(Collective::allreduce, 4, 8, 1)->algorithm == "recursive_doubling");
}

TEST_CASE("a profile that breaks an invariant is refused with its JSON path", "[tuning]") {
  const json good = to_json(sample());
  json j = good;
  j["rules"][0]["ranges"][0]["min_bytes"] = 1;
  CHECK_THAT(error_text(j), Catch::Contains("rules/0/ranges/0/min_bytes") && Catch::Contains("must start at 0"));
  j = good;
  j["rules"][0]["ranges"][1]["min_bytes"] = 70000;
  CHECK_THAT(error_text(j), Catch::Contains("rules/0/ranges/1/min_bytes") && Catch::Contains("contiguous"));
  j = good;
  j["rules"][0]["ranges"][1]["max_bytes"] = 1 << 20;
  CHECK_THAT(error_text(j), Catch::Contains("the last range must be unbounded"));
  j = good;
  j["rules"][0]["ranges"][0]["max_bytes"] = nullptr;
  CHECK_THAT(error_text(j), Catch::Contains("only the last range may be unbounded"));
  j = good;
  j["rules"][1]["comm_size"] = 4;
  j["rules"][1]["nodes"] = 1;
  CHECK_THAT(error_text(j), Catch::Contains("a second rule for allreduce on 4 ranks"));
  j = good;
  j["rules"][2]["collective"] = "allreduce_fast";
  CHECK_THAT(error_text(j), Catch::Contains("unknown collective 'allreduce_fast'"));
  j = good;
  j["rules"][0]["ranges"][1]["speedup"]["low"] = 2;
  CHECK_THAT(error_text(j), Catch::Contains("low <= estimate <= high"));
  j = good;
  j["rules"][0]["ranges"][0]["min_bytes"] = -1;
  CHECK_THAT(error_text(j), Catch::Contains("whole number of bytes"));
  j = good;
  j["rules"][0].erase("ranges");
  CHECK_THAT(error_text(j), Catch::Contains("rules/0: no \"ranges\" member"));
  j = good;
  j["objective"] = "mean";
  CHECK_THAT(error_text(j), Catch::Contains("median or p95"));
  CHECK_THAT(error_text(json::array()), Catch::Contains("not a pico profile"));
}

TEST_CASE("load_profile: another schema and a broken file are input errors", "[tuning]") {
  test::ScratchDir dir("profile");
  json j = to_json(sample());
  j["schema"] = "pico-profile/9";
  std::ofstream(dir.file("other.json")) << j.dump();
  try {
    load_profile(dir.file("other.json"));
    FAIL("accepted another schema");
  } catch (const InputError& e) {
    CHECK_THAT(e.message, Catch::Contains("pico-profile/9"));
  }
  std::ofstream(dir.file("cut.json")) << "{\n  \"schema\": \"pico-profile/1\",\n  \"rules\": [";
  try {
    load_profile(dir.file("cut.json"));
    FAIL("accepted a cut file");
  } catch (const InputError& e) {
    CHECK(e.line == 3);
    CHECK_THAT(e.message, Catch::Contains("not valid JSON"));
  }
  std::ofstream(dir.file("good.json")) << to_json(sample()).dump(2);
  CHECK(load_profile(dir.file("good.json")).rules.size() == 3);
}
