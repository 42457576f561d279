// SPDX-License-Identifier: BSD-3-Clause
// A JSON file pico refuses is refused in pico's words, never nlohmann's
// (issue 66: "type must be number, but is null" reached the user).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/json_file.hpp"
#include "support/jsonl.hpp"

namespace {

std::string text_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return pico::json_error_text(e);
  }
  return "(no exception)";
}

}  // namespace

TEST_CASE("json_error_text says what a value is and should be", "[json][issue66]") {
  const nlohmann::json doc = nlohmann::json::parse(R"({"n": null, "o": {}, "a": [1], "s": "x"})");
  CHECK(text_of([&] { (void)doc.at("n").get<double>(); }) == "is null, not a number");
  CHECK(text_of([&] { (void)doc.at("o").get<std::string>(); }) == "is an object, not a string");
  CHECK(text_of([&] { (void)doc.at("a").get<bool>(); }) == "is an array, not a boolean");
  CHECK(text_of([&] { (void)doc.at("missing"); }) == "the key 'missing' is missing");
  CHECK(text_of([&] { (void)doc.at("a").at(3); }) == "has no item 3");
  CHECK(text_of([&] { (void)doc.at("s").at("k"); }) == "is a string, not an object or array");
  CHECK(text_of([&] { (void)doc.at("s")["k"]; }) == "is a string, not an object");
  for (const char* key : {"n", "o", "a", "s"}) {
    const std::string text = text_of([&] { (void)doc.at(key).get<std::vector<int>>(); });
    CHECK(text.find("type must be") == std::string::npos);
    CHECK(text.find("json.exception") == std::string::npos);
  }
  // Not nlohmann's: unchanged.
  CHECK(text_of([] { throw std::runtime_error("3 is not a whole number from 0 to 2"); }) ==
        "3 is not a whole number from 0 to 2");
}

TEST_CASE("json_section names the section before a reworded nlohmann error", "[json][issue66]") {
  const nlohmann::json doc = nlohmann::json::parse(R"({"calls": "many"})");
  const std::string text = text_of([&] { pico::json_section("rank_timing", [&] { return doc.at("of").get<int>(); }); });
  CHECK(text == "rank_timing: the key 'of' is missing");
  CHECK(text_of([&] { pico::json_section("rank_timing", [&] { return doc.at("calls").get<int>(); }); }) ==
        "rank_timing: is a string, not a number");
  // pico's own reasons keep their path form
  CHECK(text_of([&] { pico::json_section("timing", [] { throw std::runtime_error("median_s is null"); }); }) ==
        "timing.median_s is null");
}
