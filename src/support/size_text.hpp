// SPDX-License-Identifier: BSD-3-Clause
// A byte count as the tables print it: 8B, 1.5KiB, 64KiB, 2MiB (binary
// units, at most four significant digits). One rule for every verb's output.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace pico {

inline std::string size_text(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (unit + 1 < units.size() && value >= 1024.0) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.4g}{}", value, units[unit]);
}

}  // namespace pico
