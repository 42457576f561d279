// SPDX-License-Identifier: BSD-3-Clause
// The HTML page's stragglers section (docs/report.md#the-stragglers-section):
// the run's stragglers (core/run_stragglers.hpp) and, for the cases where one
// was named and the report kept every rank's samples (timing.keep_samples),
// each rank's lateness per iteration for a ranks x iterations heat map.
// Bounded so that the page stays small whatever the run: at most
// kHeatCases cases, kHeatRanks ranks and kHeatColumns columns (iterations
// binned, each bin's median).
#pragma once

#include <nlohmann/json.hpp>

namespace pico {

inline constexpr int kHeatCases = 12;
inline constexpr int kHeatRanks = 64;
inline constexpr int kHeatColumns = 100;

// null where no case has per-rank timing (reports from before it).
nlohmann::json html_stragglers(const nlohmann::json& report);

}  // namespace pico
