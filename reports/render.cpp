#include "reports/render.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "reports/text_table.hpp"

namespace pico {

namespace {

using nlohmann::json;

// Reports may come from older or interrupted runs, so every lookup tolerates a
// missing key or a value of the wrong type instead of throwing.
const json& field(const json& obj, std::string_view key) {
  static const json null_value;
  if (!obj.is_object()) return null_value;
  const auto it = obj.find(key);
  return it == obj.end() ? null_value : *it;
}

const json& cases_of(const json& report) {
  static const json no_cases = json::array();
  const json& cases = field(report, "cases");
  return cases.is_array() ? cases : no_cases;
}

std::string text(const json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

// JSON scalar as it should appear in a CSV field or table cell; null is empty.
std::string scalar_text(const json& value) {
  switch (value.type()) {
    case json::value_t::string: return value.get<std::string>();
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::number_integer: return fmt::format("{}", value.get<std::int64_t>());
    case json::value_t::number_unsigned: return fmt::format("{}", value.get<std::uint64_t>());
    // fmt's "{}" is the shortest text that reads back as the same double.
    case json::value_t::number_float: return fmt::format("{}", value.get<double>());
    default: return {};
  }
}

// ---------------------------------------------------------------- table cells

// 1024-based like the sizes users write ("4KiB"); exact multiples print without decimals.
std::string human_size(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (unit + 1 < units.size() && value >= 1024.0) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.4g}{}", value, units[unit]);
}

std::string size_cell(const json& c) {
  const json& bytes = field(c, "bytes");
  return bytes.is_number_integer() ? human_size(bytes.get<std::uint64_t>()) : "-";
}

std::string seconds_as_us(const json& seconds) {
  return seconds.is_number() ? fmt::format("{:.2f}", seconds.get<double>() * 1e6) : "-";
}

std::string timing_us(const json& c, std::string_view key) {
  return seconds_as_us(field(field(c, "timing"), key));
}

std::string gbps_cell(const json& value) {
  return value.is_number() ? fmt::format("{:.2f}", value.get<double>()) : "-";
}

// Cuts to at most max_len bytes on its first line, never inside a UTF-8 sequence.
std::string shorten(std::string_view s, std::size_t max_len) {
  s = s.substr(0, s.find_first_of("\r\n"));
  if (s.size() <= max_len) return std::string(s);
  std::size_t cut = max_len - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}...", s.substr(0, cut));
}

std::string status_cell(const json& c) {
  const std::string status = text(field(c, "status"));
  const std::string reason = text(field(c, "reason"));
  if (status != "failed" || reason.empty()) return status;
  return fmt::format("failed: {}", shorten(reason, 40));
}

std::string validation_cell(const json& c) {
  const json& v = field(c, "validation");
  const std::string status = text(field(v, "status"));
  if (status != "failed") return status;
  return fmt::format("failed ({})", scalar_text(field(v, "mismatches")));
}

}  // namespace

std::string params_text(const json& c) {
  const auto it = c.find("params");
  if (it == c.end() || !it->is_object()) return "";
  std::string out;
  for (const auto& [k, v] : it->items()) out += fmt::format("{}{}={}", out.empty() ? "" : ";", k, v.dump());
  return out;
}

namespace {

std::string backend_algorithm_cell(const json& c) {
  const std::string params = params_text(c);
  return fmt::format("{}/{}{}", text(field(c, "backend")), text(field(c, "algorithm")),
                     params.empty() ? "" : "[" + params + "]");
}

std::string in_place_cell(const json& c) {
  const json& v = field(c, "in_place");
  return v.is_boolean() && v.get<bool>() ? "yes" : "no";
}

// ---------------------------------------------------------------- table layout

constexpr std::array<TextColumn, 13> kTableColumns = {{
    {"collective", false},
    {"backend/algorithm", false},
    {"dtype", false},
    {"op", false},
    {"np", true},
    {"size", true},
    {"in_place", false},
    {"iterations", true},
    {"median(us)", true},
    {"p95(us)", true},
    {"busbw(GB/s)", true},
    {"status", false},
    {"validation", false},
}};

using Row = std::vector<std::string>;

Row table_row(const json& c) {
  return {
      text(field(c, "collective")),
      backend_algorithm_cell(c),
      text(field(c, "dtype")),
      text(field(c, "op")),
      scalar_text(field(c, "np")),
      size_cell(c),
      in_place_cell(c),
      scalar_text(field(c, "iterations")),
      timing_us(c, "median_s"),
      timing_us(c, "p95_s"),
      gbps_cell(field(c, "busbw_GBps")),
      status_cell(c),
      validation_cell(c),
  };
}

std::string summary_line(const json& cases) {
  std::size_t ok = 0, failed = 0, skipped = 0;
  for (const json& c : cases) {
    const std::string status = text(field(c, "status"));
    ok += status == "ok";
    failed += status == "failed";
    skipped += status == "skipped";
  }
  return fmt::format("{} cases: {} ok, {} failed, {} skipped\n", cases.size(), ok, failed, skipped);
}

// ---------------------------------------------------------------- CSV

constexpr std::array<std::string_view, 10> kTimingKeys = {
    "min_s", "median_s", "mean_s", "max_s", "p5_s", "p95_s", "p99_s", "stddev_s", "ci95_low_s", "ci95_high_s"};

constexpr std::array<std::string_view, 15> kLeadingCaseKeys = {
    "case_id", "status", "reason", "backend", "library", "collective", "algorithm", "dtype",
    "op",      "count",  "bytes",  "np",      "in_place", "mode",     "iterations"};

std::vector<std::string> csv_header() {
  std::vector<std::string> header(kLeadingCaseKeys.begin(), kLeadingCaseKeys.end());
  header.insert(header.end(), kTimingKeys.begin(), kTimingKeys.end());
  for (std::string_view key : {"algbw_GBps", "busbw_GBps", "validation", "mismatches", "elapsed_s", "params"})
    header.emplace_back(key);
  return header;
}

std::vector<std::string> csv_values(const json& c) {
  std::vector<std::string> values;
  for (std::string_view key : kLeadingCaseKeys) values.push_back(scalar_text(field(c, key)));
  const json& timing = field(c, "timing");
  for (std::string_view key : kTimingKeys) values.push_back(scalar_text(field(timing, key)));
  values.push_back(scalar_text(field(c, "algbw_GBps")));
  values.push_back(scalar_text(field(c, "busbw_GBps")));
  const json& validation = field(c, "validation");
  values.push_back(scalar_text(field(validation, "status")));
  values.push_back(scalar_text(field(validation, "mismatches")));
  values.push_back(scalar_text(field(c, "elapsed_s")));
  values.push_back(params_text(c));
  return values;
}

}  // namespace

std::string render_table(const json& report) {
  const json& cases = cases_of(report);
  std::vector<Row> rows;
  for (const json& c : cases) rows.push_back(table_row(c));
  return aligned_table(kTableColumns, rows) + summary_line(cases);
}

std::string render_csv(const json& report) {
  std::string out = csv_record(csv_header());
  for (const json& c : cases_of(report)) out += csv_record(csv_values(c));
  return out;
}

}  // namespace pico
