// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_program.hpp"

#include <algorithm>

namespace pico {

double TraceProgram::traced_runtime_s() const {
  double longest = 0;
  for (const TraceRank& r : ranks) longest = std::max(longest, r.last_end_s - r.first_start_s);
  return longest;
}

void TraceProgram::scale_compute(double factor) {
  for (TraceRank& r : ranks) {
    for (TraceOp& op : r.ops) op.gap_s *= factor;
    r.final_gap_s *= factor;
  }
}

}  // namespace pico
