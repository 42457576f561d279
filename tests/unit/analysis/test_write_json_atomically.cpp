// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "file_size_limit.hpp"
#include "scratch_dir.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

using pico::test::FileSizeLimit;
using pico::test::ScratchDir;
namespace fs = std::filesystem;

TEST_CASE("write_json_atomically on a full disk names the file, keeps the old one and leaves no temporary file",
          "[report][io]") {
  const ScratchDir dir("atomic-full");
  const std::string path = dir.file("report.json");
  pico::write_json_atomically(path, {{"old", true}});
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  {
    const FileSizeLimit limit(4);  // the temporary file, where the bytes go first, has room for 4 bytes
    REQUIRE_THROWS_WITH(pico::write_json_atomically(path, {{"new", std::string(100, 'x')}}),
                        fmt::format("cannot write {}: File too large", tmp));
  }
  CHECK_FALSE(fs::exists(fs::symlink_status(tmp)));
  CHECK(nlohmann::json::parse(std::ifstream(path)).contains("old"));
}

TEST_CASE("write_json_atomically never writes through a link planted as its temporary file", "[report][io]") {
  const ScratchDir dir("atomic-link");
  const std::string path = dir.file("report.json");
  const std::string outside = dir.file("outside.txt");
  std::ofstream(outside) << "keep me";
  fs::create_symlink(outside, fmt::format("{}.tmp.{}", path, ::getpid()));
  REQUIRE_THROWS_AS(pico::write_json_atomically(path, {{"new", true}}), pico::InputError);
  CHECK(pico::read_text_file(outside) == "keep me");
}

TEST_CASE("write_json_atomically that cannot rename names the target and leaves no temporary file", "[report][io]") {
  const ScratchDir dir("atomic-rename");
  const std::string path = dir.file("report.json");
  fs::create_directories(fs::path(path) / "occupied");  // a non-empty directory cannot be renamed over
  REQUIRE_THROWS_AS(pico::write_json_atomically(path, {{"new", true}}), pico::WriteError);
  CHECK(fs::is_directory(path));
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 1);
}
