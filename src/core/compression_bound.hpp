// SPDX-License-Identifier: BSD-3-Clause
// The relative L2 error past which a compressed answer is mostly error: its
// speed wins nothing, so every view that names a winner or a verdict marks it
// (kErrorMark), does not colour it as the fastest, and says why under the
// table (docs/compression.md#error-bound; issue 65: a winner with error 0.96
// was shown green "1.00" with nothing flagging that its answer is useless).
#pragma once

#include "core/compression_metrics.hpp"

namespace pico {

inline constexpr double kMaxUsefulRelL2 = 0.5;
inline constexpr const char* kErrorMark = "!";
inline constexpr const char* kErrorLegend =
    "!: relative L2 error above 0.5 (docs/compression.md#error-bound): fast, but its answer is mostly error";

inline bool beyond_error_bound(const CompressionMetrics& m) { return m.rel_l2_error && *m.rel_l2_error > kMaxUsefulRelL2; }

}  // namespace pico
