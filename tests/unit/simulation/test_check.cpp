// SPDX-License-Identifier: BSD-3-Clause
// pico predict --check (issue 30, item 3): Spearman's rank correlation, and
// a check only between a model and a report of the same platform and
// library, said to be held out or not.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simulation/predict.hpp"
#include "support/input_error.hpp"

using namespace pico;

TEST_CASE("spearman: 1 alike, -1 reversed, ties at their average rank", "[check]") {
  CHECK(spearman({1, 2, 3, 4}, {10, 20, 30, 40}) == Approx(1.0));
  CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1.0));
  CHECK(spearman({1, 2}, {2, 1}) == Approx(-1.0));
  // Ranks {1, 2, 3} against {1.5, 1.5, 3}: r = 0.866.
  CHECK(spearman({1, 2, 3}, {5, 5, 9}) == Approx(std::sqrt(3.0) / 2));
  // Monotonic, not linear: still 1.
  CHECK(spearman({1, 10, 100, 1000}, {1, 2, 3, 4}) == Approx(1.0));
  CHECK(spearman({1}, {1}) == 0);
  CHECK(spearman({1, 2, 3}, {7, 7, 7}) == 0);  // a constant series ranks nothing
}

namespace {

nlohmann::json report_of(const std::string& platform, const std::string& library) {
  nlohmann::json c = {{"case_id", "a"},  {"backend", "reference"}, {"algorithm", "ring"}, {"collective", "allreduce"},
                      {"dtype", "float32"}, {"op", "sum"},      {"count", 256},          {"bytes", 1024},
                      {"np", 4},           {"in_place", false},  {"mode", "latency"},     {"root", 0},
                      {"params", nlohmann::json::object()},     {"status", "ok"},        {"library", library},
                      {"timing", {{"median_s", 1e-4}}}};
  return {{"platform", {{"name", platform}}}, {"cases", nlohmann::json::array({c})}};
}

}  // namespace

TEST_CASE("a check refuses a model of another platform or library and says when it is not held out", "[check]") {
  const auto dir = std::filesystem::temp_directory_path() / "pico-test-check";
  std::filesystem::create_directories(dir / "run1");
  const std::string fitted = (dir / "run1" / "report.json").string();
  std::ofstream(fitted) << report_of("emulated-cluster", "openmpi").dump();
  LogGPModel m;
  m.platform = "emulated-cluster";
  m.library = "openmpi";
  m.source = (dir / "run1").string();  // a results directory stands for its report.json
  CHECK_FALSE(check_origin(m, "model.json", report_of("emulated-cluster", "openmpi"), fitted).held_out);
  const CheckOrigin other = check_origin(m, "model.json", report_of("emulated-cluster", "openmpi"),
                                         (dir / "run2" / "report.json").string());
  CHECK(other.held_out);
  CHECK(other.report_platform == "emulated-cluster");
  try {
    check_origin(m, "model.json", report_of("local", "openmpi"), "r.json");
    FAIL("another platform was accepted");
  } catch (const InputError& e) {
    CHECK(e.file == "r.json");
    CHECK(e.message == "the report ran on platform 'local', but model.json was fitted on 'emulated-cluster'");
  }
  CHECK_THROWS_WITH(check_origin(m, "model.json", report_of("emulated-cluster", "mpich"), "r.json"),
                    Catch::Matchers::Contains("the report's cases ran on mpich, but model.json was fitted on openmpi"));
  std::filesystem::remove_all(dir);
}
