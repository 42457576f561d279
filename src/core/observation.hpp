// SPDX-License-Identifier: BSD-3-Clause
// A measured case record as the bootstrap's observation (stats/bootstrap.hpp):
// the bridge from the case record to the statistics, which know nothing of it.
#pragma once

#include <string>

#include "core/case_result.hpp"
#include "stats/bootstrap.hpp"

namespace pico {

// A measured record (timing present) as an observation of report `report_id`.
Observation observation_of(const CaseResult& r, const std::string& report_id);

}  // namespace pico
