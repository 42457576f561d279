// SPDX-License-Identifier: BSD-3-Clause
#include "reports/render.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "collectives/count_matrix.hpp"
#include "core/case_result.hpp"
#include "core/noise_guard.hpp"
#include "core/report_facts.hpp"
#include "reports/best_algorithm.hpp"
#include "reports/fitted_table.hpp"
#include "reports/nccl_tests_table.hpp"
#include "reports/overlap_table.hpp"
#include "reports/slow_links.hpp"
#include "reports/stragglers.hpp"
#include "reports/text_table.hpp"
#include "support/counted.hpp"
#include "support/printable_json.hpp"

namespace pico {

namespace {

using nlohmann::json;

// ---------------------------------------------------------------- table cells

std::string timing_us(const CaseResult& r, double TimingStats::*key) {
  return r.timing ? fmt::format("{:.2f}", (*r.timing).*key * 1e6) : "-";
}

std::string gbps_cell(const std::optional<double>& value) { return value ? fmt::format("{:.2f}", *value) : "-"; }

// Cuts to at most max_len bytes on its first line, never inside a UTF-8 sequence.
std::string shorten(std::string_view s, std::size_t max_len) {
  s = s.substr(0, s.find_first_of("\r\n"));
  if (s.size() <= max_len) return std::string(s);
  std::size_t cut = max_len - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}...", s.substr(0, cut));
}

// A failed or skipped case says why (issue 36: four bare "skipped" and exit 0 said nothing).
std::string status_cell(const CaseResult& r) {
  if (r.status == CaseStatus::ok || r.reason.empty()) return std::string(name(r.status));
  return fmt::format("{}: {}", name(r.status), shorten(r.reason, r.status == CaseStatus::skipped ? 60 : 40));
}

// A compressed case's check passes within its tolerance, which says nothing of how far off it is: its relative L2
// error goes with it ("passed" beside rel_l2 0.958 read as exact).
std::string validation_cell(const CaseResult& r) {
  std::string cell = r.validation.status != "failed" ? r.validation.status
                                                     : fmt::format("failed ({})", r.validation.mismatches);
  if (const auto e = r.compression_metrics().rel_l2_error) cell += fmt::format(" (rel L2 {:.2e})", *e);
  return cell;
}

}  // namespace

std::string params_text(const std::map<std::string, double>& params) {
  const json values = params_to_json(params);  // integral values print as integers
  std::string out;
  for (const auto& [k, v] : values.items()) out += fmt::format("{}{}={}", out.empty() ? "" : ";", k, v.dump());
  return out;
}

std::string summary_line(const std::vector<CaseResult>& cases) {
  std::size_t ok = 0, failed = 0, skipped = 0;
  for (const auto& r : cases) {
    ok += r.status == CaseStatus::ok;
    failed += r.status == CaseStatus::failed;
    skipped += r.status == CaseStatus::skipped;
  }
  return fmt::format("{}: {} ok, {} failed, {} skipped\n", counted(cases.size(), "case"), ok, failed, skipped);
}

std::string algorithm_label(const Case& c) {
  const std::string params = params_text(c.params);
  const std::string counts = counts_option(c);
  return fmt::format("{}/{}{}{}{}", c.backend, c.algorithm, params.empty() ? "" : "[" + params + "]",
                     call_form(c) == CallForm::blocking ? "" : fmt::format(" ({})", name(call_form(c))),
                     counts.empty() ? "" : fmt::format(" (counts {})", counts));
}

namespace {

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

constexpr std::size_t kNameColumn = 1, kIterationsColumn = 7, kP95Column = 9, kStatusColumn = 11, kValidationColumn = 12;
static_assert(kTableColumns[kStatusColumn].header == "status" && kTableColumns[kValidationColumn].header == "validation");
static_assert(kTableColumns[kIterationsColumn].header == "iterations" && kTableColumns[kP95Column].header == "p95(us)");

using Row = std::vector<std::string>;

// The library's default names what it was seen to run (selection.actual).
std::string algorithm_cell(const CaseResult& r) {
  const bool seen = r.c.algorithm == "default" && r.selection && r.selection->actual &&
                    !r.selection->actual->algorithm.empty();
  return seen ? fmt::format("{} (ran {})", algorithm_label(r.c), r.selection->actual->algorithm)
              : algorithm_label(r.c);
}

Row table_row(const CaseResult& r) {
  const Case& c = r.c;
  return {
      std::string(name(c.collective)),
      algorithm_cell(r),
      std::string(name(c.dtype)),
      std::string(name(c.op)),
      fmt::format("{}", c.np),
      size_text(c.bytes),
      c.in_place ? "yes" : "no",
      fmt::format("{}", r.iterations),
      timing_us(r, &TimingStats::median_s),
      timing_us(r, &TimingStats::p95_s),
      gbps_cell(r.busbw_GBps),
      status_cell(r),
      validation_cell(r),
  };
}

// OSU -f / nccl-tests: one line per size with min/median/avg/max and both
// bandwidths, which come from the median (the footer says so).
constexpr std::array<TextColumn, 14> kBenchmarkColumns = {{
    {"size", true},
    {"count", true},
    {"dtype", false},
    {"op", false},
    {"np", true},
    {"backend/algorithm", false},
    {"iterations", true},
    {"min(us)", true},
    {"median(us)", true},
    {"avg(us)", true},
    {"max(us)", true},
    {"algbw(GB/s)", true},
    {"busbw(GB/s)", true},
    {"status", false},
}};

constexpr std::size_t kBenchmarkCountColumn = 1, kBenchmarkNameColumn = 5, kBenchmarkIterationsColumn = 6,
                      kBenchmarkAvgColumn = 9, kBenchmarkStatusColumn = 13;
static_assert(kBenchmarkColumns[kBenchmarkStatusColumn].header == "status");
static_assert(kBenchmarkColumns[kBenchmarkCountColumn].header == "count" &&
              kBenchmarkColumns[kBenchmarkIterationsColumn].header == "iterations" &&
              kBenchmarkColumns[kBenchmarkAvgColumn].header == "avg(us)");

Row benchmark_row(const CaseResult& r) {
  const Case& c = r.c;
  // One status column: a wrong result is what a benchmark user must not miss.
  const std::string status = r.status == CaseStatus::ok && r.validation.status == "failed"
                                 ? validation_cell(r)
                                 : status_cell(r);
  return {
      size_text(c.bytes),
      fmt::format("{}", c.count),
      std::string(name(c.dtype)),
      std::string(name(c.op)),
      fmt::format("{}", c.np),
      algorithm_label(c),
      fmt::format("{}", r.iterations),
      timing_us(r, &TimingStats::min_s),
      timing_us(r, &TimingStats::median_s),
      timing_us(r, &TimingStats::mean_s),
      timing_us(r, &TimingStats::max_s),
      gbps_cell(r.algbw_GBps),
      gbps_cell(r.busbw_GBps),
      status,
  };
}

// How the samples were taken, once per distinct method (docs/methodology.md#calls-per-sample):
// a reader comparing with another benchmark needs to know whether a time is
// one call's or a batch's mean.
std::string sampling_lines(const std::vector<CaseResult>& cases) {
  std::set<std::pair<std::string, std::int64_t>> methods;
  for (const auto& r : cases)
    if (r.measured() && !r.timing_method.empty()) methods.emplace(r.timing_method, r.calls_per_sample);
  std::string out;
  for (const auto& [method, calls] : methods)
    if (const std::string line = sampling_text(method, calls); !line.empty()) out += line + "\n";
  return out;
}

// Where the ranks ran, once per process count, where some launch spanned
// several nodes (a hierarchical algorithm's time depends on it).
std::string placement_line(const json& report) {
  const ReportFacts f = report_facts(report);
  if (!f.several_nodes) return "";
  return fmt::format("rank placement: {}\n", fmt::join(f.placements, "; "));
}

// ---------------------------------------------------------------- CSV

struct TimingColumn {
  std::string_view header;
  double TimingStats::*value;
};
constexpr std::array<TimingColumn, 10> kTimingColumns = {{{"min_s", &TimingStats::min_s},
                                                          {"median_s", &TimingStats::median_s},
                                                          {"mean_s", &TimingStats::mean_s},
                                                          {"max_s", &TimingStats::max_s},
                                                          {"p5_s", &TimingStats::p5_s},
                                                          {"p95_s", &TimingStats::p95_s},
                                                          {"p99_s", &TimingStats::p99_s},
                                                          {"stddev_s", &TimingStats::stddev_s},
                                                          {"ci95_low_s", &TimingStats::ci95_low_s},
                                                          {"ci95_high_s", &TimingStats::ci95_high_s}}};

constexpr std::array<std::string_view, 15> kLeadingColumns = {
    "case_id", "status", "reason", "backend", "library", "collective", "algorithm", "dtype",
    "op",      "count",  "bytes",  "np",      "in_place", "mode",     "iterations"};

std::vector<std::string> csv_header() {
  std::vector<std::string> header(kLeadingColumns.begin(), kLeadingColumns.end());
  for (const auto& t : kTimingColumns) header.emplace_back(t.header);
  for (std::string_view key : {"algbw_GBps", "busbw_GBps", "validation", "mismatches", "elapsed_s", "params"})
    header.emplace_back(key);
  return header;
}

// Empty for an absent value.
std::string number_text(const std::optional<double>& v) { return v ? csv_number(*v) : std::string(); }

std::vector<std::string> csv_values(const CaseResult& r) {
  const Case& c = r.c;
  std::vector<std::string> values = {c.case_id,
                                     std::string(name(r.status)),
                                     r.reason,
                                     c.backend,
                                     r.library,
                                     std::string(name(c.collective)),
                                     c.algorithm,
                                     std::string(name(c.dtype)),
                                     std::string(name(c.op)),
                                     fmt::format("{}", c.count),
                                     fmt::format("{}", c.bytes),
                                     fmt::format("{}", c.np),
                                     c.in_place ? "true" : "false",
                                     std::string(name(c.mode)),
                                     fmt::format("{}", r.iterations)};
  for (const auto& t : kTimingColumns)
    values.push_back(r.timing ? number_text((*r.timing).*(t.value)) : std::string());
  values.push_back(number_text(r.algbw_GBps));
  values.push_back(number_text(r.busbw_GBps));
  values.push_back(r.validation.status);
  values.push_back(fmt::format("{}", r.validation.mismatches));
  values.push_back(number_text(r.elapsed_s));
  values.push_back(params_text(c.params));
  return values;
}

// The median cell of each case at a size whose measurement cannot support a verdict (core/noise_guard.hpp) marked,
// and the legend under the table; both tables have it at the same column.
constexpr std::size_t kMedianColumn = 8;
static_assert(kTableColumns[kMedianColumn].header == "median(us)" && kBenchmarkColumns[kMedianColumn].header == "median(us)");

std::string mark_noisy_sizes(const json& report, const std::vector<CaseResult>& cases, std::vector<Row>* rows) {
  const std::map<std::string, MeasurementDoubt> doubts = doubt_per_size(report, cases);
  if (rows != nullptr)
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (const auto it = doubts.find(same_size_key(cases[i].c)); cases[i].measured() && it != doubts.end() && it->second.any())
        (*rows)[i][kMedianColumn] += kNoiseMark;
  std::vector<MeasurementDoubt> per_size;
  for (const auto& [key, doubt] : doubts) per_size.push_back(doubt);
  return noise_legend(per_size, doubts.size());
}

}  // namespace

// Each failed or skipped case's reason said once under the table, numbered, with how many cases it
// holds, and its status cell pointing there (issue 65: 117 lines repeating 9 reasons, cut with "...").
std::string reason_notes(const std::vector<CaseResult>& cases, std::vector<Row>& rows, std::size_t status_column,
                         std::size_t width) {
  TableNotes notes("case");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseResult& r = cases[i];
    if (r.status == CaseStatus::ok || r.reason.empty()) continue;
    const std::size_t n =
        notes.add(fmt::format("{}: {}", name(r.status), r.reason.substr(0, r.reason.find_first_of("\r\n"))));
    rows[i][status_column] = fmt::format("{} [{}]", name(r.status), n);
  }
  return notes.lines(width);
}

std::string render_table(const json& given, TableStyle style, bool colour, std::size_t width) {
  const json report = printable_strings(given);  // a report's escape sequences must not reach the terminal
  const std::vector<CaseResult> cases = case_results_of(report);
  if (style == TableStyle::nccl_tests)
    return render_nccl_tests_table(cases) + sampling_lines(cases) + placement_line(report) +
           render_overlap_table(cases) + mark_noisy_sizes(report, cases, nullptr) + summary_line(cases);
  const bool benchmark = style == TableStyle::benchmark;
  const std::span<const TextColumn> columns =
      benchmark ? std::span<const TextColumn>(kBenchmarkColumns) : std::span<const TextColumn>(kTableColumns);
  std::vector<Row> rows;
  for (const auto& r : cases) rows.push_back(benchmark ? benchmark_row(r) : table_row(r));
  const std::string noise = mark_noisy_sizes(report, cases, &rows);
  // The benchmark table folds validation into its status column.
  const std::size_t status_column = benchmark ? kBenchmarkStatusColumn : kStatusColumn;
  const std::size_t validation_column = benchmark ? kBenchmarkStatusColumn : kValidationColumn;
  const std::string notes = table_width(columns, rows) > width ? reason_notes(cases, rows, status_column, width) : "";
  const std::string footer =
      notes + (benchmark ? "algbw and busbw from the median time (nccl-tests divides by the average)\n" : "") +
      sampling_lines(cases) + placement_line(report) + render_overlap_table(cases) +
      stragglers_text(find_stragglers(report)) +
      slow_links_text(find_slow_links(report)) + noise + summary_line(cases);
  const std::size_t names = benchmark ? kBenchmarkNameColumn : kNameColumn;
  // What a reader needs least, given up first where the table is still too wide (reports/fitted_table.hpp); the
  // run table's validation goes only once a failed check shows in the status column, as the benchmark table's does.
  const std::vector<std::size_t> optional =
      benchmark ? std::vector<std::size_t>{kBenchmarkIterationsColumn, kBenchmarkCountColumn, kBenchmarkAvgColumn}
                : std::vector<std::size_t>{kIterationsColumn, kP95Column, kValidationColumn};
  const bool folded = !benchmark && table_width(columns, rows) > width;
  if (folded)
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (cases[i].status == CaseStatus::ok && cases[i].validation.status == "failed")
        rows[i][kStatusColumn] = validation_cell(cases[i]);
  if (!colour) return fitted_table(columns, rows, width, {}, {names}, optional) + footer;
  const CellColour status_colour = [&](std::size_t row, std::size_t column) -> std::string_view {
    const CaseResult& r = cases[row];
    if (column == validation_column && r.validation.status == "failed") return "31";
    if (column == status_column && folded && r.validation.status == "failed") return "31";  // folded in (above)
    if (column == status_column) return r.status == CaseStatus::ok ? "32" : r.status == CaseStatus::failed ? "31" : "33";
    if (column == validation_column) return r.validation.status == "passed" ? "32" : "";
    return "";
  };
  return fitted_table(columns, rows, width, status_colour, {names}, optional) + footer;
}

std::string render_csv(const json& report) {
  std::string out = csv_record(csv_header());
  // CSV is read in terminals and spreadsheets alike: control characters escaped, line breaks kept (quoted).
  for (const auto& r : case_results_of(printable_strings(report, LineBreaks::keep))) out += csv_record(csv_values(r));
  return out;
}

}  // namespace pico
