// SPDX-License-Identifier: BSD-3-Clause
// The longest line of a text, in bytes: what the tests of tables fitted to
// 100 columns hold below the width.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>

namespace pico::test {

inline std::size_t widest_line(const std::string& text) {
  std::istringstream in(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(in, line);) widest = std::max(widest, line.size());
  return widest;
}

}  // namespace pico::test
