#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "core/file_io.hpp"
#include "scratch_dir.hpp"

using pico::test::ScratchDir;
namespace fs = std::filesystem;

TEST_CASE("write_json_atomically on a full disk names the file, keeps the old one and leaves no temporary file",
          "[report][io]") {
  const ScratchDir dir("atomic-full");
  const std::string path = dir.file("report.json");
  pico::write_json_atomically(path, {{"old", true}});
  // The temporary file is where the bytes go first: make it the full device.
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  fs::create_symlink("/dev/full", tmp);
  REQUIRE_THROWS_WITH(pico::write_json_atomically(path, {{"new", true}}),
                      fmt::format("cannot write {}: No space left on device", tmp));
  CHECK_FALSE(fs::exists(fs::symlink_status(tmp)));
  CHECK(nlohmann::json::parse(std::ifstream(path)).contains("old"));
}

TEST_CASE("write_json_atomically that cannot rename names the target and leaves no temporary file", "[report][io]") {
  const ScratchDir dir("atomic-rename");
  const std::string path = dir.file("report.json");
  fs::create_directories(fs::path(path) / "occupied");  // a non-empty directory cannot be renamed over
  REQUIRE_THROWS_AS(pico::write_json_atomically(path, {{"new", true}}), pico::WriteError);
  CHECK(fs::is_directory(path));
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 1);
}
