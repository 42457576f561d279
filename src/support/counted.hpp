// SPDX-License-Identifier: BSD-3-Clause
// "1 case", "2 cases": a count and its noun, as the tables and summaries print them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace pico {

// The noun's plural is the noun and "s" (every noun pico counts is regular).
inline std::string counted(std::size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

}  // namespace pico
