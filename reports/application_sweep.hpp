// SPDX-License-Identifier: BSD-3-Clause
// The sweep an application needs (docs/applications.md#tuning-for-the-application):
// from an application report's counts, an experiment of the collectives,
// message sizes and communicator sizes the application spends its collective
// time in, every algorithm of the library, for `pico run` then `pico tune`.
// A fraction of a full sweep's cases, and exactly the sizes the profile will be asked about.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// The experiment (YAML text) covering the call sites that hold `coverage`
// (0.95: 95%) of the default variant's time in collectives, longest first;
// of sizes within 2x of each other, the one with the most time.
std::string application_sweep_experiment(const nlohmann::json& report, double coverage = 0.95);

}  // namespace pico
