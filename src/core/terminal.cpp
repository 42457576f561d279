// SPDX-License-Identifier: BSD-3-Clause
#include "core/terminal.hpp"

#include <unistd.h>

#include <cstdlib>

namespace pico {

bool colour_allowed(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  return ::isatty(::fileno(stream)) != 0;
}

}  // namespace pico
