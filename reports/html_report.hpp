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

// user_labels: what --label gave, in the order of the reports (html_title).
std::string render_html(const std::vector<LabelledReport>& reports, const VegaLibrary& library,
                        const std::vector<std::string>& user_labels = {});

// The page's title: "pico report: EXPERIMENT" for one report (the label the user gave it, if any), the
// reports' labels where several are compared ("pico report: 1: run A; 2: run B").
std::string html_title(const std::vector<LabelledReport>& reports, const std::vector<std::string>& user_labels);

// The page of one application run's report (reports/application_html.hpp): the same template,
// libraries and escaping, drawn by reports/html/application.js.
std::string render_application_html(const LabelledReport& report, const VegaLibrary& library);

// Text safe inside an HTML element or a quoted attribute.
std::string html_escaped(std::string_view text);

// JSON text safe inside <script type="application/json">: every '<' (which
// JSON has only inside strings) written \u003c, so no "</script>" ends it early.
std::string script_safe_json(const nlohmann::json& data);

}  // namespace pico
