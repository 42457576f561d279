// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/jsonl.hpp"
#include "file_size_limit.hpp"
#include "scratch_dir.hpp"

using pico::JsonLinesFile;
using pico::WriteError;
using pico::test::ScratchDir;

using pico::test::FileSizeLimit;

TEST_CASE("a JSON-lines append to a full disk names the file and the reason", "[jsonl][io]") {
  const ScratchDir dir("jsonl-no-room");
  const std::string path = dir.file("cases.jsonl");
  JsonLinesFile cases(path);
  const FileSizeLimit limit(0);  // no room at all
  REQUIRE_THROWS_WITH(cases.append({{"case_id", "c1"}}), "cannot write " + path + ": File too large");
}

TEST_CASE("a JSON-lines file is a results file: a device in its place is refused", "[jsonl][io]") {
  REQUIRE_THROWS_AS(JsonLinesFile("/dev/full"), pico::InputError);
}

TEST_CASE("a JSON-lines append that fills the disk mid-line leaves the file as it was", "[jsonl][io]") {
  const ScratchDir dir("jsonl-full");
  const std::string path = dir.file("cases.jsonl");
  JsonLinesFile cases(path);
  cases.append({{"case_id", "c1"}});
  const std::string before = pico::read_text_file(path);
  {
    const FileSizeLimit limit(before.size() + 10);  // room for part of the next line only
    REQUIRE_THROWS_AS(cases.append({{"case_id", "c2"}, {"padding", std::string(100, 'x')}}), WriteError);
  }
  CHECK(pico::read_text_file(path) == before);
  cases.append({{"case_id", "c3"}});
  const auto records = pico::read_json_lines(path);
  REQUIRE(records.size() == 2);
  CHECK(records[1].at("case_id") == "c3");
}

TEST_CASE("a JSON-lines file ends a torn last line before appending", "[jsonl]") {
  const ScratchDir dir("jsonl-torn");
  const std::string path = dir.file("cases.jsonl");
  std::ofstream(path) << "{\"case_id\":\"c1\"}\n{\"case_id\":";
  JsonLinesFile(path).append({{"case_id", "c2"}});
  const auto records = pico::read_json_lines(path);
  REQUIRE(records.size() == 2);
  CHECK(records[1].at("case_id") == "c2");
}

TEST_CASE("write_text_file names the file and the reason when it cannot write", "[io]") {
  REQUIRE_THROWS_WITH(pico::write_text_file("/dev/full", "text"), "cannot write /dev/full: No space left on device");
  const ScratchDir dir("text-file");
  pico::write_text_file(dir.file("a.txt"), "first, longer text");
  pico::write_text_file(dir.file("a.txt"), "second");
  CHECK(pico::read_text_file(dir.file("a.txt")) == "second");
}
