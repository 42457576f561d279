// SPDX-License-Identifier: BSD-3-Clause
// An application report's figures as words and table cells, defined once:
// the text table, the terminal view (reports/application_table.hpp) and the
// HTML page (reports/application_html.hpp) print them from here, so every
// view names and writes a figure alike (docs/applications.md#the-report).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/speedup.hpp"
#include "reports/text_table.hpp"

namespace pico {

// What the figures are, in lines of at most 100 columns, each ended by a newline.
inline constexpr std::string_view kApplicationDefinition =
    "speedup = the default's time / the variant's, paired round by round (the robust mean of the\n"
    "  round ratios); 95% interval = percentile bootstrap over rounds; verdict: faster / slower where\n"
    "  the interval lies above / below 1, else undecided; shares: of the run, MPI_Init to MPI_Finalize\n";

// "application 'NAME': COMMAND\non PLATFORM (LIBRARY VERSION), R round(s) x N repetition(s); ...\nTIME\n".
std::string application_heading(const nlohmann::json& report);
// The command line as one string, its words joined by spaces.
std::string application_command_text(const nlohmann::json& argv);
// What "time" is in this report: the launches' wall time or the figure of merit.
std::string application_metric_text(const nlohmann::json& report);

// A fraction as a percentage, one decimal: "12.5%".
std::string share_text(double fraction);

// A variant's speedup as the report holds it, for the texts of core/speedup.hpp.
MeasuredSpeedup variant_speedup(const nlohmann::json& variant);

// The per-variant table: its columns and one variant's cells.
const std::vector<TextColumn>& variant_columns();
std::vector<std::string> variant_cells(const nlohmann::json& variant);

// The call sites' table of one variant: columns (with the profile's where it has one) and one site's cells.
std::vector<TextColumn> call_columns(bool profile);
std::vector<std::string> call_cells(const nlohmann::json& call, bool profile);
// A variant's call sites, the longest (seconds per launch) first.
std::vector<nlohmann::json> calls_by_time(const nlohmann::json& variant);

// The lines said under the table per variant, each without the variant's name and unended:
// its verdict's reason, what the profile chose and took, the prediction, where the saving went.
std::vector<std::string> variant_notes(const nlohmann::json& variant);
// "launch L (round R) failed: REASON".
std::string failure_text(const nlohmann::json& failure);

}  // namespace pico
