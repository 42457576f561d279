// SPDX-License-Identifier: BSD-3-Clause
#include "support/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;

TempDir::TempDir(std::string_view prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec)
    throw InputError("TMPDIR", fmt::format("no temporary directory: {}", ec.message()),
                     "set TMPDIR to a directory that exists, or unset it");
  std::string pattern = (base / fmt::format("{}-XXXXXX", prefix)).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(base.string(), fmt::format("cannot create a temporary directory: {}", std::strerror(errno)),
                     "set TMPDIR to a writable directory");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace pico
