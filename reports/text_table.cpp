// SPDX-License-Identifier: BSD-3-Clause
#include "reports/text_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace pico {
namespace {

std::string format_line(std::span<const TextColumn> columns, const std::vector<std::string>& cells,
                        const std::vector<std::size_t>& widths, const std::function<std::string_view(std::size_t)>& colour) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += "  ";
    // Escapes around the text only: the padding stays outside, so widths and trimming hold.
    const std::string_view sgr = colour ? colour(i) : std::string_view();
    const std::string text = sgr.empty() ? cells[i] : fmt::format("\033[{}m{}\033[0m", sgr, cells[i]);
    const std::string padding(widths[i] - std::min(widths[i], cells[i].size()), ' ');
    line += columns[i].right_aligned ? padding + text : text + padding;
  }
  // Padding after the last column is noise for diffs and terminals.
  line.erase(line.find_last_not_of(' ') + 1);
  return line + '\n';
}

std::string csv_field(std::string_view value) {
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
  std::string quoted = "\"";
  for (char ch : value) {
    if (ch == '"') quoted += '"';
    quoted += ch;
  }
  return quoted + '"';
}

}  // namespace

std::string aligned_table(std::span<const TextColumn> columns, const std::vector<std::vector<std::string>>& rows,
                          const CellColour& colour) {
  std::vector<std::string> header;
  for (const auto& c : columns) header.emplace_back(c.header);
  std::vector<std::size_t> widths(columns.size(), 0);
  for (std::size_t i = 0; i < header.size(); ++i) widths[i] = header[i].size();
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  std::size_t total = 2 * (widths.size() - 1);  // the column separators
  for (std::size_t w : widths) total += w;
  std::string out = format_line(columns, header, widths, {}) + std::string(total, '-') + '\n';
  for (std::size_t r = 0; r < rows.size(); ++r)
    out += format_line(columns, rows[r], widths,
                       colour ? std::function<std::string_view(std::size_t)>([&](std::size_t c) { return colour(r, c); })
                              : std::function<std::string_view(std::size_t)>());
  return out;
}

std::string number_text(double v) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  if (v == 0) return "0";
  // Digits after the point for four significant ones; none from 1000 on (a count, a long time).
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(v))));
  const int decimals = std::clamp(3 - magnitude, 0, 15);
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string csv_number(double v) { return fmt::format("{:.9g}", v); }

std::string duration_text(double seconds) {
  if (seconds >= 1e-3) return fmt::format("{:.2f} ms", seconds * 1e3);
  return fmt::format("{:.1f} us", seconds * 1e6);
}

std::string csv_record(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line + "\r\n";
}

}  // namespace pico
