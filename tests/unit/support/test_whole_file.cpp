// SPDX-License-Identifier: BSD-3-Clause
// Which files pico refuses to read whole, by their metadata (support/whole_file.hpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/whole_file.hpp"

using namespace pico;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A fresh directory for one test, removed afterwards.
struct TempDir {
  TempDir() : path(fs::temp_directory_path() / ("pico-whole-file-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path path;
};

}  // namespace

TEST_CASE("regular files within the bound are read, missing ones are left to the opener", "[core]") {
  TempDir dir;
  std::ofstream(dir.path / "small.yaml") << "name: x\n";
  CHECK_FALSE(whole_file_problem(dir.path / "small.yaml", 8).has_value());
  CHECK_FALSE(whole_file_problem(dir.path / "missing.yaml", 8).has_value());
}

TEST_CASE("directories, devices, FIFOs and files over the bound are refused before reading", "[core]") {
  TempDir dir;
  CHECK(whole_file_problem(dir.path, kMiB) == "is a directory, not a file");
  CHECK(whole_file_problem("/dev/zero", kMiB) == "is a FIFO, device or socket, not a regular file");
  REQUIRE(::mkfifo((dir.path / "fifo").c_str(), 0600) == 0);
  CHECK(whole_file_problem(dir.path / "fifo", kMiB) == "is a FIFO, device or socket, not a regular file");
  fs::create_symlink(dir.path / "fifo", dir.path / "link");
  CHECK(whole_file_problem(dir.path / "link", kMiB) == "is a FIFO, device or socket, not a regular file");
  // Sparse: the size is what counts, and it costs no disk.
  std::ofstream(dir.path / "big.yaml").close();
  fs::resize_file(dir.path / "big.yaml", 16 * kMiB + 1);
  CHECK(whole_file_problem(dir.path / "big.yaml", 16 * kMiB) ==
        "is 17 MiB (16777217 bytes), more than the 16 MiB limit");
  CHECK_FALSE(whole_file_problem(dir.path / "big.yaml", 17 * kMiB).has_value());
}
