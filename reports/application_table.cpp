// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_table.hpp"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/printable_json.hpp"
#include "reports/application_texts.hpp"
#include "reports/text_table.hpp"

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
std::string calls_table(const json& variant, bool colour) {
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
  std::string out = aligned_table(columns, rows, [&](std::size_t row, std::size_t column) -> std::string_view {
    return colour && column == taken_at && rows[row][column] == "NO" ? "1;31" : "";
  });
  if (sites.size() > rows.size())
    out += fmt::format("... and {} more call site(s), {:.1f}% of the time in collectives (--format json has all)\n",
                       sites.size() - rows.size(), total_s > 0 ? 100 * (total_s - shown_s) / total_s : 0.0);
  return out;
}

}  // namespace

std::string application_table(const json& given, bool colour) {
  const json report = printable_strings(given);  // a report's escape sequences must not reach the terminal
  std::string out = application_heading(report) + std::string(kApplicationDefinition);
  const std::size_t verdict_at = column_of(variant_columns(), "verdict");
  const std::size_t speedup_at = column_of(variant_columns(), "speedup");
  for (const auto& per_np : report["processes"]) {
    out += fmt::format("\nnp {}\n", per_np["np"].get<int>());
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : per_np["variants"]) rows.push_back(variant_cells(v));
    out += aligned_table(variant_columns(), rows, [&](std::size_t row, std::size_t column) -> std::string_view {
      if (!colour || (column != verdict_at && column != speedup_at)) return "";
      return verdict_colour(rows[row][verdict_at]);
    });
    for (const auto& v : per_np["variants"]) {
      const std::string name = v["variant"].get<std::string>();
      for (const std::string& note : variant_notes(v)) out += fmt::format("{}: {}\n", name, note);
      for (const auto& f : v["failures"]) out += fmt::format("{}: {}\n", name, failure_text(f));
    }
    for (const auto& v : per_np["variants"]) {
      if (v["verdict"] == "baseline" || v["calls"].empty()) continue;
      out += fmt::format("\ncalls of {} (np {}), per launch:\n{}", v["variant"].get<std::string>(),
                         per_np["np"].get<int>(), calls_table(v, colour));
    }
  }
  return out;
}

}  // namespace pico
