// SPDX-License-Identifier: BSD-3-Clause
// `pico report --format html`: one self-contained page (docs/report.md#html-report):
// the template of reports/html/page.html with the plotting libraries, the
// reports' data (html_data.hpp) and the chart script inlined, so it opens
// without a network.
#pragma once

#include <string>
#include <vector>

#include "reports/html_data.hpp"
#include "reports/vega_library.hpp"

namespace pico {

std::string render_html(const std::vector<LabelledReport>& reports, const VegaLibrary& library);

// The page of one application run's report (reports/application_html.hpp): the same template,
// libraries and escaping, drawn by reports/html/application.js.
std::string render_application_html(const LabelledReport& report, const VegaLibrary& library);

// Text safe inside an HTML element or a quoted attribute.
std::string html_escaped(std::string_view text);

// JSON text safe inside <script type="application/json">: every '<' (which
// JSON has only inside strings) written \u003c, so no "</script>" ends it early.
std::string script_safe_json(const nlohmann::json& data);

}  // namespace pico
