// SPDX-License-Identifier: BSD-3-Clause
// A fresh directory under the system's temporary directory (mode 0700, as
// mkdtemp makes it), removed with its contents when it goes out of scope:
// LogGOPSim's files (/tmp/pico-sim-*), the estimate's pilot run
// (/tmp/pico-pilot-*).
#pragma once

#include <filesystem>
#include <string_view>

namespace pico {

class TempDir {
 public:
  // TMPDIR/PREFIX-XXXXXX. Throws InputError where no temporary directory
  // exists or none can be made there (the hint: set TMPDIR).
  explicit TempDir(std::string_view prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pico
