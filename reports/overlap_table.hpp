// SPDX-License-Identifier: BSD-3-Clause
// The table OSU 7.4's non-blocking benchmarks print (osu_iallreduce -f):
// per non-blocking case, the overall time with computation inserted, the
// computation, the start call, the wait, the pure communication time and the
// overlap, with the definition under it. Empty where no case measured one.
#pragma once

#include <string>
#include <vector>

#include "core/case_result.hpp"

namespace pico {

std::string render_overlap_table(const std::vector<CaseResult>& cases);

}  // namespace pico
