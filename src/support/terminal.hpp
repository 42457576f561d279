// SPDX-License-Identifier: BSD-3-Clause
// Whether pico may colour what it prints: only on a terminal, and never when
// the user set NO_COLOR (https://no-color.org: any non-empty value); and how
// wide the terminal is.
#pragma once

#include <cstddef>
#include <cstdio>

namespace pico {

bool colour_allowed(std::FILE* stream);

// The columns a line may take: $COLUMNS where set to a number, else the
// terminal's width where stream is one, else fallback.
std::size_t terminal_width(std::FILE* stream, std::size_t fallback);

}  // namespace pico
