// SPDX-License-Identifier: BSD-3-Clause
#include "launch/new_results_dir.hpp"

#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "instrumentation/provenance.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;

std::string new_results_dir_path(const std::string& exact, const std::string& base, const std::string& platform) {
  if (!exact.empty()) return exact;
  std::random_device rd;
  const std::string id = fmt::format("{:08x}", rd());
  return (fs::path(base) / platform / (utc_timestamp_compact() + "-" + id)).string();
}

void make_new_results_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    throw InputError(dir, 0, 0, "the results directory already exists and is not empty",
                     "choose a new directory, leave out --dir to get a fresh one under --output, "
                     "or finish that run with --resume DIR");
  // -o or --dir through an existing file is bad input (exit 2); results that
  // cannot be written otherwise (/proc, a full disk) are exit 3 with the reason.
  for (fs::path p = fs::path(dir).lexically_normal(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p, ec)) {
      if (!fs::is_directory(p, ec))
        throw InputError(p.string(), 0, 0, "is a file, not a directory: the results directory cannot be made under it",
                         "give -o (or --dir) a directory; it is created when missing");
      break;
    }
    if (p == p.parent_path()) break;
  }
  if (fs::create_directories(dir, ec); ec) throw WriteError(dir, ec.value());
}

}  // namespace pico
