// SPDX-License-Identifier: BSD-3-Clause
#include "config/data_files.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/build_info.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;

std::string read_config_file(const std::string& path, std::string_view what, std::string_view hint) {
  return read_whole_file(path, kMaxConfigFileBytes, what, hint,
                         fmt::format("give a YAML file of at most {} MiB", kMaxConfigFileBytes / kMiB));
}

std::vector<fs::path> data_file_candidates(const fs::path& relative, bool include_cwd) {
  std::vector<fs::path> roots;
  std::error_code ec;
  if (auto cwd = fs::current_path(ec); !ec && include_cwd) roots.push_back(cwd);
  // An installed pico (cmake --install): PREFIX/bin/pico reads PREFIX/share/pico.
  if (auto self = fs::read_symlink("/proc/self/exe", ec); !ec) roots.push_back(self.parent_path() / ".." / "share" / "pico");
  roots.emplace_back(std::string(build::source_dir));
  std::vector<fs::path> files;
  for (const auto& root : roots) {
    fs::path f = (root / relative).lexically_normal();
    if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
  }
  return files;
}

}  // namespace pico
