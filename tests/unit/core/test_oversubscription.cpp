// SPDX-License-Identifier: BSD-3-Clause
// Ranks outnumbering a host's cores, found from a report's provenance.
#include <catch2/catch.hpp>

#include "core/oversubscription.hpp"

using namespace pico;
using nlohmann::json;

namespace {

json host(const std::string& name, int ranks, json cores) {
  json r = json::array();
  for (int i = 0; i < ranks; ++i) r.push_back(i);
  return {{"name", name}, {"ranks", r}, {"topology", {{"cores", cores}, {"pus", 2}}}};
}

}  // namespace

TEST_CASE("oversubscription: per launch and host, ranks against hwloc cores") {
  const json prov = {{"hosts", json::array({host("a", 4, 2)})},
                     {"launches", json::array({{{"launch", 0}, {"hosts", json::array({host("a", 2, 2)})}},
                                               {{"launch", 1}, {"hosts", json::array({host("a", 3, 2), host("b", 1, 2)})}}})}};
  const auto found = oversubscribed(prov);
  REQUIRE(found.size() == 1);
  CHECK(found[0].launch == 1);
  CHECK(found[0].host == "a");
  CHECK(found[0].ranks == 3);
  CHECK(found[0].cores == 2);
  CHECK_THAT(oversubscription_text(found), Catch::Matchers::Contains("launch 1: 3 ranks on host a with 2 cores"));
  CHECK(to_json(found) == json::array({{{"launch", 1}, {"host", "a"}, {"ranks", 3}, {"cores", 2}}}));
}

TEST_CASE("oversubscription: a report's line, from its provenance") {
  const json report = {{"provenance", {{"hosts", json::array({host("a", 3, 2)})}}}};
  CHECK_THAT(report_oversubscription_text(report), Catch::Matchers::StartsWith("oversubscribed (3 ranks on host a"));
  CHECK(report_oversubscription_text({{"provenance", {{"hosts", json::array({host("a", 2, 2)})}}}}).empty());
  CHECK(report_oversubscription_text(json::object()).empty());
  CHECK(report_oversubscription_text(json::array()).empty());
}

TEST_CASE("oversubscription: without launches the run's hosts, unknown cores say nothing") {
  CHECK(oversubscribed({{"hosts", json::array({host("a", 4, 2)})}}).at(0).launch == -1);
  CHECK(oversubscribed({{"hosts", json::array({host("a", 4, nullptr)})}}).empty());
  CHECK(oversubscribed({{"hosts", json::array({host("a", 4, -1)})}}).empty());
  CHECK(oversubscribed(json::array()).empty());
  CHECK(oversubscription_text({}).empty());
  // An edited name cannot break the one-line message.
  CHECK(oversubscribed({{"hosts", json::array({host("x\ny", 4, 2)})}}).at(0).host == "x?y");
}
