// SPDX-License-Identifier: BSD-3-Clause
// The report's `guidelines` section for people (pico report --format table
// and term): the verdict counts, one row per guideline checked, violations
// first, and each violation's sentence with its interval.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// "" for a report without the section (no mock-ups ran, or an older pico's).
std::string render_guidelines(const nlohmann::json& report);

}  // namespace pico
