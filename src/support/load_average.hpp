// SPDX-License-Identifier: BSD-3-Clause
// The kernel's load average, read where a run starts and ends (core/host_load.hpp
// records it; the noise guard reads it).
#pragma once

#include <optional>

namespace pico {

// /proc/loadavg's first figure; nullopt where the file is not there (not Linux) or not a number.
std::optional<double> load_average_1min();

}  // namespace pico
