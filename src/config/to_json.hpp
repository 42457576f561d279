// Experiments and platforms as JSON, as the report records them after parsing
// (defaults filled in, ranges expanded).
#pragma once

#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "config/platform.hpp"

namespace pico {

nlohmann::json experiment_to_json(const Experiment& e);
nlohmann::json platform_to_json(const Platform& p);

}  // namespace pico
