// SPDX-License-Identifier: BSD-3-Clause
#include "core/ran_algorithm.hpp"

#include <stdexcept>

namespace pico {

nlohmann::json to_json(const AlgorithmFunctions& functions) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [function, f] : functions) {
    j[function] = {{"collective", name(f.collective)}, {"algorithm", f.algorithm}};
    if (!f.component.empty()) j[function]["component"] = f.component;
  }
  return j;
}

AlgorithmFunctions algorithm_functions_from_json(const nlohmann::json& j) {
  AlgorithmFunctions out;
  for (const auto& [function, f] : j.items()) {
    const auto collective = parse_collective(f.at("collective").get<std::string>());
    if (!collective) throw std::runtime_error("unknown collective for " + function);
    out[function] = {*collective, f.at("algorithm").get<std::string>(), f.value("component", "")};
  }
  return out;
}

nlohmann::json to_json(const RanAlgorithmSource& s) {
  nlohmann::json j{{"source", s.source}};
  if (!s.why.empty()) j["why"] = s.why;
  return j;
}

RanAlgorithmSource ran_algorithm_source_from_json(const nlohmann::json& j) {
  return {j.at("source").get<std::string>(), j.value("why", std::string())};
}

}  // namespace pico
