// SPDX-License-Identifier: BSD-3-Clause
// An application report (launch/application_report.hpp) as text: per process
// count, each variant's time, speedup over the default with its interval and
// verdict, then the calls it changed, what the profile chose and whether it
// was taken (docs/applications.md#the-report). With colour (pico report
// --format term on a terminal), the verdicts and what the profile did not
// take are coloured; the figures are the same.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// width: the tables fitted to it and the lines wrapped (reports/fitted_table.hpp); --wide gives kUnlimitedWidth.
std::string application_table(const nlohmann::json& report, bool colour = false, std::size_t width = 100);

}  // namespace pico
