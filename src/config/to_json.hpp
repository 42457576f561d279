// SPDX-License-Identifier: BSD-3-Clause
// Experiments and platforms as JSON, as the report records them after parsing
// (defaults filled in, ranges expanded).
#pragma once

#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "config/platform.hpp"

namespace pico {

nlohmann::json experiment_to_json(const Experiment& e);
// What experiment_to_json wrote (a report's experiment.parsed), read back; a
// report from before a key was recorded reads as the parser's default for it.
// Throws nlohmann's or std::invalid_argument's error on a malformed one.
Experiment experiment_from_json(const nlohmann::json& j);
nlohmann::json platform_to_json(const Platform& p);

// The timing and instrumentation settings as plan.json and launch-<k>.json carry them.
nlohmann::json timing_to_json(const TimingSpec& t);
TimingSpec timing_from_json(const nlohmann::json& j);
nlohmann::json instrumentation_to_json(const InstrumentationSpec& i);
InstrumentationSpec instrumentation_from_json(const nlohmann::json& j);

}  // namespace pico
