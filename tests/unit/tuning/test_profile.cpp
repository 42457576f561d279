// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <fstream>

#include "scratch_dir.hpp"
#include "support/input_error.hpp"
#include "tuning/profile.hpp"
#include "tuning_fixtures.hpp"

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
  p.warnings = {"20261124T000000Z-abcd: oversubscribed (launch 0: 3 ranks on host vm with 2 cores)"};
  ProfileRule four{Collective::allreduce, 4, 1, 4, {profile_range(0, 65535, "recursive_doubling"), profile_range(65536, {}, "ring")}, {}};
  four.ranges[1].params = {{"segment_size", 65536}};
  four.ranges[1].measured_bytes = {65536, 1048576};
  four.ranges[1].speedup = SpeedupInterval{1.3, 1.2, 1.4};
  four.ranges[1].evidence = {{"20261124T000000Z-abcd", "0123456789abcdef", 1048576, 0.001, 0.0013}};
  p.rules = {four, ProfileRule{Collective::allreduce, 8, 2, 4, {profile_range(0, {}, "default")}, {}},
             ProfileRule{Collective::bcast, 4, 1, 4, {profile_range(0, {}, "binomial")}, {}}};
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
  CHECK(back.warnings == p.warnings);  // an oversubscribed run's evidence stays marked (issue 51)
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
  p.rules.push_back(ProfileRule{Collective::allreduce, 4, 4, 1, {profile_range(0, {}, "ring")}, {}});
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

// Issue 35, findings 2 to 4: what the exports would write as given is refused where the profile is read.
TEST_CASE("a profile's free text is one line of printable UTF-8", "[tuning][harden]") {
  const json good = to_json(sample());
  json j = good;
  j["platform"] = "local\n2  # collective allreduce";  // would start a rule in Open MPI's file
  CHECK_THAT(error_text(j), Catch::Contains("platform: holds a line break"));
  j = good;
  j["library"]["version"] = "4.1.4\r";
  CHECK_THAT(error_text(j), Catch::Contains("library/version: holds a line break"));
  j = good;
  j["test"] = "a\x1b[31m";
  CHECK_THAT(error_text(j), Catch::Contains("test: holds a control character"));
  j = good;
  j["reports"] = {"run\xc2\x85"};  // NEL, a C1 line break
  CHECK_THAT(error_text(j), Catch::Contains("reports/0: holds a control character (C1)"));
  j = good;
  j["rules"][0]["ranges"][1]["evidence"][0]["case_id"] = "c\xe2\x80\xa8";
  CHECK_THAT(error_text(j), Catch::Contains("case_id: holds a line break (U+2028)"));
}

TEST_CASE("a profile names its library version", "[tuning][harden]") {
  json j = to_json(sample());
  j["library"]["version"] = "";  // skipped every version check: a 6.0-only algorithm loaded into 4.1.4
  CHECK_THAT(error_text(j), Catch::Contains("library/version: '' is not a library version"));
  j["library"]["version"] = "latest";
  CHECK_THAT(error_text(j), Catch::Contains("is not a library version"));
  for (const char* v : {"4.1.4", "2021.10", "5.0.0rc12", "2.28.9"}) {
    j["library"]["version"] = v;
    CHECK_NOTHROW(profile_from_json(j, "p.json"));
  }
}

TEST_CASE("profile sizes stay below 2^63, so ranges cannot wrap into contiguity", "[tuning][harden]") {
  const json good = to_json(sample());
  json j = good;
  j["rules"][0]["ranges"][0]["max_bytes"] = 18446744073709551615ULL;  // 2^64-1, then [0, null] read as contiguous
  j["rules"][0]["ranges"][1]["min_bytes"] = 0;
  CHECK_THAT(error_text(j), Catch::Contains("rules/0/ranges/0/max_bytes: must be a whole number of bytes from 0 to 2^63-1"));
  j = good;
  j["rules"][0]["ranges"][1]["min_bytes"] = 9223372036854775808ULL;  // 2^63: Open MPI's %li reads it negative
  CHECK_THAT(error_text(j), Catch::Contains("from 0 to 2^63-1"));
  j = good;
  j["rules"][0]["ranges"][0]["max_bytes"] = 9223372036854775806LL;  // 2^63 - 2: the next range at 2^63 - 1 is fine
  j["rules"][0]["ranges"][1]["min_bytes"] = 9223372036854775807LL;
  CHECK_NOTHROW(profile_from_json(j, "p.json"));
}

TEST_CASE("profile parameters are whole numbers within what the library takes", "[tuning][harden]") {
  const json good = to_json(sample());
  for (const double bad : {-1.0, 0.5, 1e300, 2147483648.0}) {
    json j = good;
    j["rules"][0]["ranges"][1]["params"]["segment_size"] = bad;
    CHECK_THAT(error_text(j), Catch::Contains("params/segment_size: is") && Catch::Contains("from 0 to 2147483647"));
  }
  for (const double bad : {0.0, -5.0, 65.0, 1e300, 2.5}) {
    json j = good;
    j["rules"][0]["ranges"][1]["params"] = {{"channels", bad}};
    CHECK_THAT(error_text(j), Catch::Contains("params/channels: is") && Catch::Contains("from 1 to 64"));
  }
  json j = good;
  j["rules"][0]["ranges"][1]["params"] = {{"segment_size", 0}, {"tree_fanout", 4}};
  CHECK_NOTHROW(profile_from_json(j, "p.json"));
}

TEST_CASE("default_ran: \"default\" resolved by size to what the library's default ran (issue 50)", "[tuning]") {
  TunedProfile p = sample();
  ProfileRange& d = p.rules[1].ranges[0];
  d.measured_bytes = {1024, 1048576};
  d.default_ran = {{1024, "recursive_doubling"}, {1048576, "ring"}};
  // The boundary between the two measured sizes is tune's: ceil(sqrt(1024 x 1 MiB)) = 32 KiB.
  CHECK(d.algorithm_at(0) == "recursive_doubling");
  CHECK(d.algorithm_at(32767) == "recursive_doubling");
  CHECK(d.algorithm_at(32768) == "ring");
  CHECK(d.algorithm_at(std::uint64_t{1} << 40) == "ring");
  CHECK(d.choice_at(32768) == "default (ran ring)");
  const auto spans = d.spans();
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].min_bytes == 0);
  CHECK(*spans[0].max_bytes == 32767);
  CHECK(spans[1].min_bytes == 32768);
  CHECK_FALSE(spans[1].max_bytes.has_value());
  CHECK(spans[1].algorithm == "ring");
  // A chosen algorithm is itself whatever the default ran.
  p.rules[0].ranges[1].default_ran = {{65536, "recursive_doubling"}};
  CHECK(p.rules[0].ranges[1].algorithm_at(65536) == "ring");
  CHECK(p.rules[0].ranges[1].spans().size() == 1);
  const TunedProfile back = profile_from_json(to_json(p), "p.json");
  CHECK(back.rules[1].ranges[0].default_ran.size() == 2);
  CHECK(back.rules[1].ranges[0].algorithm_at(1 << 20) == "ring");
  CHECK(sample().rules[1].ranges[0].algorithm_at(1024) == "default");  // nothing recorded
  CHECK(sample().rules[1].ranges[0].choice_at(1024) == "default");
  CHECK(p.rules[0].ranges[1].choice_at(65536) == "ring");

  json j = to_json(p);
  j["rules"][1]["ranges"][0]["default_ran"][1]["bytes"] = 512;
  CHECK_THAT(error_text(j), Catch::Matchers::Contains("rules/1/ranges/0/default_ran/1/bytes: must be above the size before it"));
  j = to_json(p);
  j["rules"][0]["ranges"][1]["default_ran"][0]["bytes"] = 8;
  CHECK_THAT(error_text(j), Catch::Matchers::Contains("rules/0/ranges/1/default_ran/0/bytes: must lie in the range"));
  j = to_json(p);
  j["rules"][1]["ranges"][0]["default_ran"][0]["algorithm"] = "default";
  CHECK_THAT(error_text(j), Catch::Matchers::Contains("default_ran/0/algorithm: must name the algorithm"));
}
