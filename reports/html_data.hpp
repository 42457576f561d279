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
  std::string label;  // how the page names the report ("1: quickstart on local, openmpi 4.1.4, 2026-11-28 20:38")
  std::string path;   // what the user gave
  nlohmann::json report;
};

// "N: EXPERIMENT on PLATFORM, LIBRARY VERSION, START" for the Nth report (1-based; START the run's
// start in UTC to the minute, which tells apart two runs of one setup), or "N: USER_LABEL" where the
// user gave one (--label).
std::string report_label(const nlohmann::json& report, std::size_t number, const std::string& user_label = "");

// {"strings": [...], "tables": {"cases", "phases", "compression", "best": {columns, strings, rows}},
//  "reports": [{label, path, counts, provenance: [[name, value], ...]}]}
// Format: docs/report.md#html-report.
nlohmann::json html_page_data(const std::vector<LabelledReport>& reports);

}  // namespace pico
