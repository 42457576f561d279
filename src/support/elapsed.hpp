// SPDX-License-Identifier: BSD-3-Clause
// Seconds on the steady clock since a point read from it: the progress lines,
// the executor's launch times and the replays' own timings.
#pragma once

#include <chrono>

namespace pico {

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace pico
