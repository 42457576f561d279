// SPDX-License-Identifier: BSD-3-Clause
// Issue 35, finding 1 and 5: a results directory is opened as pico wrote it,
// never through a link planted there, and a launch record cut short by a full
// disk, or files edited out of shape, are told apart by name.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "launch/results_lock.hpp"
#include "launch/resume.hpp"
#include "launch/run_record.hpp"
#include "scratch_dir.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/results_file.hpp"

namespace fs = std::filesystem;
using pico::InputError;
using pico::test::ScratchDir;

namespace {

// A file outside the results directory, and a link to it planted inside as `name`.
struct PlantedLink {
  PlantedLink(const ScratchDir& dir, const std::string& name) : outside(dir.file("outside.txt")) {
    fs::create_directories(dir.path() / "run");
    std::ofstream(outside) << "keep me\n";
    inside = (dir.path() / "run" / name).string();
    fs::create_symlink(outside, inside);
  }
  std::string outside, inside;
};

std::string text_of(const std::string& path) { return pico::read_text_file(path); }

}  // namespace

TEST_CASE("a .lock planted as a link is refused and its target keeps its contents", "[launch][results-dir]") {
  const ScratchDir dir("planted-lock");
  const PlantedLink link(dir, ".lock");
  REQUIRE_THROWS_WITH(pico::ResultsDirLock((dir.path() / "run").string()),
                      Catch::Contains(".lock: a symbolic link in a results directory"));
  CHECK(text_of(link.outside) == "keep me\n");
}

TEST_CASE("cases.jsonl and progress.jsonl planted as links are neither appended to nor read", "[launch][results-dir]") {
  for (const char* name : {"cases.jsonl", "progress.jsonl"}) {
    const ScratchDir sub(std::string("planted-") + name);
    const PlantedLink link(sub, name);
    REQUIRE_THROWS_AS(pico::JsonLinesFile(link.inside), InputError);
    REQUIRE_THROWS_AS(pico::read_json_lines(link.inside), InputError);
    CHECK(text_of(link.outside) == "keep me\n");
  }
}

TEST_CASE("launch-K.info.json and topology-HOST.xml planted as links are not overwritten", "[launch][results-dir]") {
  for (const char* name : {"launch-0.info.json", "topology-node1.xml", "launch-0.json", "report.json.tmp.1"}) {
    const ScratchDir dir(std::string("planted-") + name);
    const PlantedLink link(dir, name);
    REQUIRE_THROWS_WITH(pico::write_results_file(link.inside, "{}"),
                        Catch::Contains("a symbolic link in a results directory"));
    CHECK(text_of(link.outside) == "keep me\n");
  }
}

TEST_CASE("a FIFO in a results directory is refused without waiting for its other end", "[launch][results-dir]") {
  const ScratchDir dir("planted-fifo");
  const std::string fifo = dir.file("cases.jsonl");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  REQUIRE_THROWS_WITH(pico::write_results_file(fifo, "x"), Catch::Contains("a FIFO"));
  REQUIRE_THROWS_WITH(pico::read_results_file(fifo), Catch::Contains("a FIFO"));
}

TEST_CASE("check_results_dir names the first link or special file before anything is opened",
          "[launch][results-dir]") {
  const ScratchDir dir("check-dir");
  std::ofstream(dir.file("plan.json")) << "{}";
  fs::create_directories(dir.path() / "sub");
  CHECK_NOTHROW(pico::check_results_dir(dir.path().string()));
  fs::create_symlink("/etc/hostname", dir.path() / "topology-a.xml");
  REQUIRE_THROWS_WITH(pico::check_results_dir(dir.path().string()),
                      Catch::Contains("topology-a.xml: a symbolic link in a results directory"));
}

TEST_CASE("a launch record cut short by a full disk is a launch that never started", "[launch][resume]") {
  const ScratchDir dir("torn-launch");
  std::ofstream(dir.file("launch-0.json")) << R"({"np": 2, "cases": [{}, {}]})";
  std::ofstream(dir.file("launch-1.json")) << "";  // 0 bytes: the disk was full
  std::ofstream(dir.file("launch-2.json")) << R"({"np": 2, "ca)";
  const nlohmann::json dead = pico::dead_launch_entries(dir.path().string(), nlohmann::json::array());
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].at("launch") == 0);
  CHECK(pico::launches_in(dir.path().string()) == 3);  // the resume's launches take new numbers
}

TEST_CASE("an edited launch record, plan.json or run.json is refused naming the file", "[launch][resume]") {
  const ScratchDir dir("edited-records");
  const std::string d = dir.path().string();
  std::ofstream(dir.file("launch-0.json")) << R"({"np": "two", "cases": []})";
  REQUIRE_THROWS_WITH(pico::dead_launch_entries(d, nlohmann::json::array()),
                      Catch::StartsWith(fmt::format("pico: error: {}/launch-0.json: not as pico writes it", d)));

  std::ofstream(dir.file("run.json")) << R"({"run": {"launch_log": 5}, "front_end": {}})";
  REQUIRE_THROWS_WITH(pico::read_run_record(d), Catch::StartsWith(fmt::format("pico: error: {}/run.json: ", d)));

  std::ofstream(dir.file("plan.json")) << R"({"timing": {}})";
  REQUIRE_THROWS_WITH(pico::read_plan(d), Catch::StartsWith(fmt::format("pico: error: {}/plan.json: ", d)));
  REQUIRE_THROWS_WITH(pico::read_plan(d), !Catch::Contains("json.exception") && !Catch::Contains("map::at"));
}

TEST_CASE("a process count is read bounded, never cut to an int", "[launch][resume]") {
  CHECK(pico::json_int(nlohmann::json(4), 1, INT_MAX) == 4);
  CHECK_THROWS_AS(pico::json_int(nlohmann::json(1'000'000'000'000LL), 1, INT_MAX), std::out_of_range);
  CHECK_THROWS_AS(pico::json_int(nlohmann::json(-4), 1, INT_MAX), std::out_of_range);
  CHECK_THROWS_AS(pico::json_int(nlohmann::json(18446744073709551615ULL), 1, INT_MAX), std::out_of_range);
  CHECK_THROWS_AS(pico::json_int(nlohmann::json(2.5), 1, INT_MAX), std::out_of_range);
}

TEST_CASE("JSON nested deeper than the limit is refused, not parsed into a crash", "[json]") {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  REQUIRE_THROWS_WITH(pico::parse_json_text(deep, "r.json", ""),
                      Catch::Contains(fmt::format("nests deeper than {} levels", pico::kMaxJsonDepth)));
  const int ok_depth = pico::kMaxJsonDepth;
  CHECK_NOTHROW(pico::parse_json_text(std::string(ok_depth, '[') + std::string(ok_depth, ']'), "r.json", ""));
  CHECK_FALSE(pico::parse_json_line(deep).has_value());
  CHECK(pico::parse_json_line(R"({"a": [1]})").has_value());
}

// Issue 53, finding 4: nlohmann's "number overflow parsing '1e999'" named no
// file; run.json `[]` gave "cannot use at() with array"; a wrongly typed
// field of a case record named no field.
TEST_CASE("JSON errors name the file, the place and the field", "[json]") {
  REQUIRE_THROWS_WITH(pico::parse_json_text("{\"a\": 1,\n \"b\": [1, -2e400]}", "m.json", ""),
                      Catch::StartsWith("pico: error: m.json:2:11: number overflow parsing '-2e400'") &&
                          !Catch::Contains("json.exception"));
  CHECK_FALSE(pico::parse_json_line("{\"x\": 1e999}").has_value());  // a torn line, as in cases.jsonl

  const ScratchDir dir("array-run-json");
  std::ofstream(dir.file("run.json")) << "[]";
  REQUIRE_THROWS_WITH(pico::read_run_record(dir.path().string()),
                      Catch::Contains("run.json: not as pico writes it: the JSON is an array, not an object"));

  nlohmann::json record = nlohmann::json::parse(R"({"case_id": "c1", "backend": "mpi", "algorithm": "default",
      "collective": "bcast", "mode": "latency", "dtype": "int8", "op": "none", "count": 8, "bytes": 8, "np": 2,
      "in_place": false, "status": 5})");
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record),
                      Catch::Contains("malformed case record c1: status: is a number, not a string"));
  record["status"] = "ok";
  record["bytes"] = "eight";
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record), Catch::Contains("bytes: is a string, not a number"));
  record.erase("bytes");
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record), Catch::Contains("bytes: missing"));
  record["bytes"] = 8;
  record["mode"] = "fastest";
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record), Catch::Contains("mode: unknown value 'fastest'"));
  record["mode"] = "latency";
  record["timing"] = {{"median_s", "slow"}};
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record),
                      Catch::Contains("malformed case record c1: timing.median_s is \"slow\": each statistic of a "
                                      "measured case's timing is a number of seconds"));
  // A null median reads so too, not as nlohmann's "type must be number, but is null" (issue 66).
  record["timing"] = {{"median_s", nullptr}};
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record),
                      Catch::Contains("timing.median_s is null: each statistic") &&
                          !Catch::Contains("type must be"));
  record.erase("timing");
  record["rounds"] = {{"median_s", {1.0}}, {"samples", {"five"}}};
  REQUIRE_THROWS_WITH(pico::case_result_from_json(record), Catch::Contains("rounds.samples: is a string, not a number"));
}
