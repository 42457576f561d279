// SPDX-License-Identifier: BSD-3-Clause
#include "support/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace pico {

bool colour_allowed(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  return ::isatty(::fileno(stream)) != 0;
}

std::size_t terminal_width(std::FILE* stream, std::size_t fallback) {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    const unsigned long n = std::strtoul(columns, &end, 10);
    if (*end == '\0' && n > 0 && n < 100000) return n;
  }
  winsize size{};
  if (::isatty(::fileno(stream)) != 0 && ::ioctl(::fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return fallback;
}

}  // namespace pico
