// SPDX-License-Identifier: BSD-3-Clause
// The data the HTML report's page embeds, once: compact tables (column names,
// rows of values, repeated strings as indices into one string list) that
// reports/html/charts.js decodes and every chart references.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct LabelledReport {
  std::string label;  // how the page names the report ("1: quickstart on local, openmpi 4.1.4")
  std::string path;   // what the user gave
  nlohmann::json report;
};

// "N: EXPERIMENT on PLATFORM, LIBRARY VERSION" for the Nth report (1-based).
std::string report_label(const nlohmann::json& report, std::size_t number);

// {"strings": [...], "tables": {"cases", "phases", "compression", "best": {columns, strings, rows}},
//  "reports": [{label, path, counts, provenance: [[name, value], ...]}]}
// Format: docs/report.md#html-report.
nlohmann::json html_page_data(const std::vector<LabelledReport>& reports);

}  // namespace pico
