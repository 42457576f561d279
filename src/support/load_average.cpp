// SPDX-License-Identifier: BSD-3-Clause
#include "support/load_average.hpp"

#include <cmath>
#include <fstream>

namespace pico {

std::optional<double> load_average_1min() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  if (!(in >> load) || !std::isfinite(load) || load < 0) return std::nullopt;
  return load;
}

}  // namespace pico
