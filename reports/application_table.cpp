// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_table.hpp"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "reports/application_texts.hpp"
#include "reports/fitted_table.hpp"
#include "reports/text_table.hpp"
#include "support/printable_json.hpp"

namespace pico {
namespace {

using nlohmann::json;

// Call sites a variant's table shows, the longest first.
constexpr std::size_t kCallRows = 12;

// Where the column of that header is in columns (columns.size() where none is).
std::size_t column_of(const std::vector<TextColumn>& columns, std::string_view header) {
  std::size_t i = 0;
  while (i < columns.size() && columns[i].header != header) ++i;
  return i;
}

// The SGR colour of a verdict: faster green, slower red; undecided stays plain (no gain shown).
std::string_view verdict_colour(const std::string& verdict) {
  if (verdict == "faster") return "1;32";
  if (verdict == "slower") return "1;31";
  return "";
}

// The calls of one variant beside the default's, where either names an algorithm.
std::string calls_table(const json& variant, bool colour, std::size_t width) {
  const bool profile = variant.contains("profile_calls");
  const std::vector<TextColumn> columns = call_columns(profile);
  const std::vector<json> sites = calls_by_time(variant);
  double total_s = 0, shown_s = 0;
  for (const json& c : sites) total_s += c["seconds"].get<double>();
  std::vector<std::vector<std::string>> rows;
  for (const json& c : sites) {
    if (rows.size() == kCallRows) break;
    shown_s += c["seconds"].get<double>();
    rows.push_back(call_cells(c, profile));
  }
  const std::size_t taken_at = column_of(columns, "taken");
  // Fitted (reports/fitted_table.hpp): the algorithms are the names; the sweep's figure and the calls per launch
  // go first where it is still too wide.
  std::vector<std::size_t> names = {column_of(columns, "default ran"), column_of(columns, "ran")}, optional;
  if (profile) {
    names.push_back(column_of(columns, "profile chose"));
    optional.push_back(column_of(columns, "sweep said"));
  }
  optional.push_back(column_of(columns, "calls/launch"));
  std::string out = fitted_table(columns, rows, width, [&](std::size_t row, std::size_t column) -> std::string_view {
    return colour && column == taken_at && rows[row][column] == "NO" ? "1;31" : "";
  }, names, optional);
  if (sites.size() > rows.size())
    out += wrapped(fmt::format("... and {} more call site(s), {:.1f}% of the time in collectives (--format json "
                               "has all)",
                               sites.size() - rows.size(), total_s > 0 ? 100 * (total_s - shown_s) / total_s : 0.0),
                   width);
  return out;
}

}  // namespace

std::string application_table(const json& given, bool colour, std::size_t width) {
  const json report = printable_strings(given);  // a report's escape sequences must not reach the terminal
  std::string out = wrapped(application_heading(report), width, "  ") + std::string(kApplicationDefinition);
  const std::size_t verdict_at = column_of(variant_columns(), "verdict");
  const std::size_t speedup_at = column_of(variant_columns(), "speedup");
  for (const auto& per_np : report["processes"]) {
    out += fmt::format("\nnp {}\n", per_np["np"].get<int>());
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : per_np["variants"]) rows.push_back(variant_cells(v));
    // The shares go first where the table is too wide (the verdict and its interval stay), then the failures'
    // count (the notes under the table name each failure). A variant's name is the user's, and the notes under
    // the table use it: never cut.
    out += fitted_table(variant_columns(), rows, width, [&](std::size_t row, std::size_t column) -> std::string_view {
      if (!colour || (column != verdict_at && column != speedup_at)) return "";
      return verdict_colour(rows[row][verdict_at]);
    }, {}, {column_of(variant_columns(), "in calls changed"), column_of(variant_columns(), "in collectives"),
             column_of(variant_columns(), "failed")});
    for (const auto& v : per_np["variants"]) {
      const std::string name = v["variant"].get<std::string>();
      for (const std::string& note : variant_notes(v)) out += wrapped(fmt::format("{}: {}", name, note), width, "  ");
      for (const auto& f : v["failures"]) out += wrapped(fmt::format("{}: {}", name, failure_text(f)), width, "  ");
    }
    for (const auto& v : per_np["variants"]) {
      if (v["verdict"] == "baseline" || v["calls"].empty()) continue;
      out += fmt::format("\ncalls of {} (np {}), per launch:\n{}", v["variant"].get<std::string>(),
                         per_np["np"].get<int>(), calls_table(v, colour, width));
    }
  }
  return out;
}

}  // namespace pico
