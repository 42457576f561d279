// SPDX-License-Identifier: BSD-3-Clause
#include "support/executable_search.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace pico {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::vector<std::string> path_entries() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "";
  std::vector<std::string> entries;
  while (true) {
    const std::size_t colon = rest.find(':');
    entries.emplace_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) return entries;
    rest.remove_prefix(colon + 1);
  }
}

std::filesystem::path this_program_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

}  // namespace pico
