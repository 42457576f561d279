// SPDX-License-Identifier: BSD-3-Clause
// Whether pico may colour what it prints: only on a terminal, and never when
// the user set NO_COLOR (https://no-color.org: any non-empty value).
#pragma once

#include <cstdio>

namespace pico {

bool colour_allowed(std::FILE* stream);

}  // namespace pico
