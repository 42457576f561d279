// SPDX-License-Identifier: BSD-3-Clause
// The report's `rank_samples` (timing.keep_samples; docs/report.md): every
// rank's arrival and exit of every sample, compact. Times are relative to the
// sample's earliest arrival (the common start), as little-endian float32
// (0.1 us resolution up to a second) in base64, rank-major: 1,000 ranks x
// 10,000 samples take about 107 MB where JSON numbers took twice that.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/rank_timing.hpp"

namespace pico {

inline constexpr std::string_view kRankSamplesEncoding = "float32le-base64";

nlohmann::json compact_rank_samples(const RankTimes& t);
// Inverse of compact_rank_samples (each sample's earliest arrival at 0).
// Throws std::runtime_error where malformed.
RankTimes rank_samples_from_json(const nlohmann::json& j);

}  // namespace pico
