// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "launch/results_lock.hpp"
#include "launch/resume.hpp"
#include "scratch_dir.hpp"
#include "support/input_error.hpp"

using pico::ResultsDirLock;
using pico::test::ScratchDir;

TEST_CASE("a results directory is locked while a pico works in it, and the second is told the holder's pid",
          "[launch][lock]") {
  const ScratchDir dir("lock");
  std::optional<ResultsDirLock> first(dir.path().string());
  // flock locks belong to an open file: a second open, even in this process, is refused as another pico's would be.
  REQUIRE_THROWS_AS(ResultsDirLock(dir.path().string()), pico::InputError);
  REQUIRE_THROWS_WITH(ResultsDirLock(dir.path().string()), Catch::Contains(fmt::format("pid {}", ::getpid())));
  first.reset();
  CHECK_NOTHROW(ResultsDirLock(dir.path().string()));
}

TEST_CASE("launches a dead pico left out of launch_log are recorded with what is known of them", "[launch][resume]") {
  const ScratchDir dir("dead-launch");
  std::ofstream(dir.file("launch-0.json")) << R"({"np": 2, "cases": [{}, {}]})";
  std::ofstream(dir.file("launch-1.json")) << R"({"np": 3, "cases": [{}, {}, {}]})";
  std::ofstream(dir.file("cases.jsonl")) << "{\"launch\":0}\n{\"launch\":0}\n{\"launch\":1}\n";
  const nlohmann::json logged = nlohmann::json::array({{{"launch", 0}}});

  const nlohmann::json dead = pico::dead_launch_entries(dir.path().string(), logged);

  REQUIRE(dead.size() == 1);
  CHECK(dead[0].at("launch") == 1);
  CHECK(dead[0].at("np") == 3);
  CHECK(dead[0].at("cases_requested") == 3);
  CHECK(dead[0].at("cases_done") == 1);
  CHECK(dead[0].at("log") == "launch-1.log");
  CHECK(dead[0].at("exit").get<std::string>().starts_with("unknown: "));
  CHECK(pico::dead_launch_entries(dir.path().string(), nlohmann::json::array({{{"launch", 0}}, {{"launch", 1}}})).empty());
}
