// SPDX-License-Identifier: BSD-3-Clause
// A report's strings as a terminal may show them: every string (and key) with
// its control characters escaped as printable() does (\n, \x1b, \u009b), so
// that a report's experiment name, host or failure reason cannot set the
// terminal's title or clear its screen when pico prints a table, a terminal
// view or CSV of it. The text views print what this returns; HTML escapes on
// its own (reports/html_report.hpp).
#pragma once

#include <nlohmann/json.hpp>

namespace pico {

// Whether a line break stays one: CSV quotes a field that holds one (RFC
// 4180), and a spreadsheet shows it as such; a table's cell must stay on its line.
enum class LineBreaks { escape, keep };

// A copy of j with every string value and object key through printable()
// (with `keep`, each line of a string value, its '\n' kept).
// Recursive: JSON as pico reads it nests at most kMaxJsonDepth deep.
nlohmann::json printable_strings(const nlohmann::json& j, LineBreaks breaks = LineBreaks::escape);

}  // namespace pico
