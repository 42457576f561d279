// SPDX-License-Identifier: BSD-3-Clause
// The HTML report's page template and chart script (reports/html/page.html,
// reports/html/charts.js, and reports/html/application.js for an application
// run's report), compiled in at build time (CMakeLists.txt).
#pragma once

#include <string_view>

namespace pico::html_assets {

extern const std::string_view page_template;
extern const std::string_view charts_script;
extern const std::string_view application_script;

}  // namespace pico::html_assets
