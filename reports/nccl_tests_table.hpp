// SPDX-License-Identifier: BSD-3-Clause
// The table nccl-tests prints (src/common.cu), for `pico bench --style
// nccl-tests`: one line per size with the out-of-place and the in-place
// measurement side by side (time, algbw, busbw, #wrong), then the count of
// wrong values and the average bus bandwidth. pico's time is the median
// (nccl-tests' the average), which the table says.
#pragma once

#include <string>
#include <vector>

#include "core/case_result.hpp"

namespace pico {

std::string render_nccl_tests_table(const std::vector<CaseResult>& cases);

}  // namespace pico
