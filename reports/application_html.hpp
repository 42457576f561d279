// SPDX-License-Identifier: BSD-3-Clause
// The data the HTML page embeds for an application report
// (launch/application_report.hpp; docs/report.md#html-report): per process
// count, each variant's figures as numbers for the charts and, for every
// table, the cells the text table prints (reports/application_texts.hpp), so
// the page writes no figure of its own. reports/html/application.js draws it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/html_data.hpp"

namespace pico {

// Whether a report is an application run's (pico-application-report/1).
bool is_application_report(const nlohmann::json& report);

// "1: NAME on PLATFORM, LIBRARY VERSION, START", or "1: USER_LABEL" where the user gave one.
std::string application_label(const nlohmann::json& report, const std::string& user_label = "");

// {"kind": "application", label, path, heading, metric, definition, variant_columns, call_columns,
//  variants: [[name, what it changes]], processes: [{np, variants: [...]}], provenance: [[name, value]]}
nlohmann::json application_page_data(const LabelledReport& report);

}  // namespace pico
