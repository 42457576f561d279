// SPDX-License-Identifier: BSD-3-Clause
#include "reports/terminal_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/compression_bound.hpp"
#include "core/noise_guard.hpp"
#include "core/oversubscription.hpp"
#include "core/placement_mismatch.hpp"
#include "reports/best_algorithm.hpp"
#include "reports/compare.hpp"
#include "reports/fitted_table.hpp"
#include "reports/html_data.hpp"
#include "reports/render.hpp"
#include "reports/slow_links.hpp"
#include "reports/stragglers.hpp"
#include "reports/text_table.hpp"
#include "support/printable_json.hpp"

namespace pico {
namespace {

constexpr std::size_t kMinWidth = 40;
constexpr std::size_t kMinName = 16;  // a name cut shorter says nothing

// A time over the fastest: the fastest bold green, within 5% plain, then yellow, from twice red.
std::string_view ratio_colour(double ratio, bool fastest) {
  if (fastest) return "1;32";
  if (ratio < 1.05) return "";
  return ratio < 2 ? "33" : "31";
}

// Besides the process count, what tells two groups of one collective apart.
std::string variant_text(const Case& c) {
  std::string out(name(c.dtype));
  if (c.op != Op::none) out += fmt::format(" {}", name(c.op));
  if (c.in_place) out += " in-place";
  if (c.mode != TimingMode::latency) out += fmt::format(" {}", name(c.mode));
  return out;
}

// Microseconds as every table prints them: no exponent (a 20 ms median read "2.025e+04").
std::string us(double s) { return number_text(s * 1e6); }

// The widest line a table of these cells would print (two spaces between columns).
std::size_t table_width(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows) {
  std::size_t total = 2 * (headers.size() - 1);
  for (std::size_t c = 0; c < headers.size(); ++c) {
    std::size_t w = headers[c].size();
    for (const auto& row : rows) w = std::max(w, row[c].size());
    total += w;
  }
  return total;
}

// Columns before first_number to the left, the numbers from it on to the right.
std::vector<TextColumn> text_columns(const std::vector<std::string>& headers, std::size_t first_number) {
  std::vector<TextColumn> columns;
  for (std::size_t i = 0; i < headers.size(); ++i) columns.push_back({headers[i], i >= first_number});
  return columns;
}

// Per size: the fastest, its median, the default's and what it loses. A column with one value
// throughout (the collective, the variant, the default) is said once above the table; the
// fastest's name is cut to fit.
using SizeDoubts = std::map<std::string, MeasurementDoubt>;

bool in_doubt(const SizeDoubts& doubts, const Case& c) {
  const auto it = doubts.find(same_size_key(c));
  return it != doubts.end() && it->second.any();
}

// The default/best cell's colour: green where the default is the fastest; by how much it loses only where the
// speedup's interval decides it (core/speedup.hpp) and the size's measurement can support that (core/noise_guard.hpp):
// an undecided 1.54x was as yellow as a decided 1.07x.
std::string_view loss_colour(const BestAtSize& b, bool doubtful) {
  if (b.reference == nullptr) return "";
  if (b.reference == b.best) return "32";
  if (doubtful) return "";
  const auto s = speedup_between(*b.reference, *b.best, true);
  if (!s || s->verdict() != "faster") return "";
  return b.reference_over_best() < 1.05 ? "32" : ratio_colour(b.reference_over_best(), false);
}

std::string summary(const std::vector<CaseResult>& results, std::size_t width, bool colour, const SizeDoubts& doubts) {
  enum Column : std::size_t { collective, variant, np, size, fastest, error, fastest_us, dflt, dflt_us, loss, ran, count };
  const std::array<std::string, count> all_headers = {"collective",  "variant", "np",          "size",
                                                      "fastest",     "rel L2",  "us",          "default",
                                                      "default us",  "default/best", "default ran"};
  std::vector<std::array<std::string, count>> full;
  std::vector<std::string_view> loss_colours;
  bool beyond_bound = false;  // a fastest whose answer is mostly error: marked, and said under the table
  for (const BestAtSize& b : best_per_size(results, "")) {
    const CaseResult* d = b.reference;
    const std::string ran = d && d->selection && d->selection->actual ? d->selection->actual->algorithm : "";
    const bool doubtful = in_doubt(doubts, b.best->c);
    const std::string mark = doubtful ? std::string(kNoiseMark) : "";
    loss_colours.push_back(loss_colour(b, doubtful));
    beyond_bound = beyond_bound || beyond_error_bound(b.best->compression_metrics());
    full.push_back({std::string(name(b.best->c.collective)), variant_text(b.best->c), fmt::format("{}", b.best->c.np),
                    size_text(b.best->c.bytes),
                    algorithm_label(b.best->c) + (beyond_error_bound(b.best->compression_metrics())
                                                      ? kErrorMark : "") + mark,
                    b.best->compression_metrics().rel_l2_error ? fmt::format("{:.2e}", *b.best->compression_metrics().rel_l2_error) : "-",
                    us(b.best_s),
                    d ? algorithm_label(d->c) : "-", d ? us(b.reference_s) : "-",
                    d ? fmt::format("{:.2f}x{}", b.reference_over_best(), mark) : "-", ran.empty() ? "-" : ran});
  }
  if (full.empty()) return "no case measured\n";
  std::string out;
  std::map<std::string, std::string> abbreviated;
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < count; ++c) {
    const bool one_value = std::all_of(full.begin(), full.end(), [&](const auto& row) { return row[c] == full[0][c]; });
    if (one_value && (c == collective || c == variant || c == dflt))
      out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", all_headers[c], full[0][c]);
    else if (!(one_value && (c == error || c == ran) && full[0][c] == "-"))  // only where some row has one
      shown.push_back(c);
  }
  if (!out.empty()) out = wrapped(out, width);
  std::vector<std::string> headers;
  std::vector<TextColumn> columns;
  for (std::size_t c : shown) {
    headers.push_back(all_headers[c]);
    const bool number = c == np || c == size || c == error || c == fastest_us || c == dflt_us || c == loss;
    columns.push_back({all_headers[c], number});
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : full) {
    std::vector<std::string> cells;
    for (std::size_t c : shown) cells.push_back(row[c]);
    rows.push_back(std::move(cells));
  }
  // Too wide: what the library said its default ran goes first, then the fastest's name gives up
  // what is missing (never below kMinName), then the default's median goes, then the fastest's.
  const auto drop = [&](Column c) {
    const auto at = std::find(shown.begin(), shown.end(), c);
    if (table_width(headers, rows) <= width || at == shown.end()) return;
    const auto i = at - shown.begin();
    shown.erase(at);
    headers.erase(headers.begin() + i);
    columns.erase(columns.begin() + i);
    for (auto& row : rows) row.erase(row.begin() + i);
  };
  drop(ran);
  const std::size_t name_at = static_cast<std::size_t>(std::find(shown.begin(), shown.end(), fastest) - shown.begin());
  if (const std::size_t wide = table_width(headers, rows); wide > width) {
    std::size_t longest = 0;
    for (const auto& row : rows) longest = std::max(longest, row[name_at].size());
    const std::size_t keep = std::max(kMinName, longest > wide - width ? longest - (wide - width) : 0);
    for (auto& row : rows) row[name_at] = shortened(row[name_at], keep, abbreviated);
  }
  drop(dflt_us);
  drop(fastest_us);
  return out + aligned_table(columns, rows, [&](std::size_t row, std::size_t column) -> std::string_view {
    return colour && shown[column] == loss ? loss_colours[row] : std::string_view();
  }) + abbreviations_line(abbreviated, width) +
         (beyond_bound ? wrapped(kErrorLegend, width) : std::string());
}

struct Line {
  std::string name;
  std::map<std::uint64_t, double> ratio;  // bytes -> median over the fastest median there
  double geo_mean = 0;
  std::optional<double> largest_error;  // compressed: the largest relative L2 error over its sizes
};

// One group's table: a row per algorithm (by geometric mean), a column per size; the sizes that
// do not fit beside the names go on to a further block of the same rows.
std::string over_fastest_table(const std::vector<const CaseResult*>& group, std::size_t width, bool colour,
                               const SizeDoubts& doubts) {
  std::map<std::uint64_t, double> fastest;
  for (const CaseResult* r : group) {
    auto [it, added] = fastest.try_emplace(r->c.bytes, r->timing->median_s);
    if (!added) it->second = std::min(it->second, r->timing->median_s);
  }
  std::map<std::string, Line> by_name;
  bool compressed = false;
  for (const CaseResult* r : group) {
    Line& line = by_name[algorithm_label(r->c)];
    line.ratio[r->c.bytes] = r->timing->median_s / fastest.at(r->c.bytes);
    if (const auto e = r->compression_metrics().rel_l2_error) {
      line.largest_error = std::max(line.largest_error.value_or(0), *e);
      compressed = true;
    }
  }
  std::vector<Line> lines;
  for (auto& [label, line] : by_name) {
    double logs = 0;
    for (const auto& [bytes, ratio] : line.ratio) logs += std::log(ratio);
    line.name = label;
    line.geo_mean = std::exp(logs / static_cast<double>(line.ratio.size()));
    lines.push_back(std::move(line));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.geo_mean < b.geo_mean; });

  std::vector<std::uint64_t> sizes;
  for (const auto& [bytes, time] : fastest) sizes.push_back(bytes);
  std::set<std::uint64_t> doubtful;  // sizes whose measurement cannot support a verdict: their heading marked
  for (const CaseResult* r : group)
    if (in_doubt(doubts, r->c)) doubtful.insert(r->c.bytes);
  const auto heading = [&](std::uint64_t bytes) {
    return size_text(bytes) + (doubtful.contains(bytes) ? std::string(kNoiseMark) : "");
  };
  const auto column_width = [&](std::uint64_t bytes) {
    std::size_t w = heading(bytes).size();
    for (const Line& line : lines)
      if (const auto it = line.ratio.find(bytes); it != line.ratio.end()) w = std::max(w, fmt::format("{:.2f}", it->second).size());
    return w;
  };
  // The columns after the sizes: "geo.mean", and for compressed lines "  rel L2 (largest)".
  const std::size_t kGeoWidth = compressed ? 8 + 2 + 16 : 8;
  // Names get what the numbers leave, and at least two fifths of the line: past that the sizes
  // go on to further blocks.
  std::size_t longest = 0, numbers = 2 + kGeoWidth;
  for (const Line& line : lines) longest = std::max(longest, line.name.size());
  for (std::uint64_t bytes : sizes) numbers += 2 + column_width(bytes);
  const std::size_t name_width =
      std::min(longest, std::max({kMinName, width * 2 / 5, width > numbers ? width - numbers : 0}));
  std::string out;
  std::map<std::string, std::string> abbreviated;
  bool beyond_bound = false;
  for (std::size_t first = 0; first < sizes.size();) {
    std::size_t used = std::max<std::size_t>(name_width, 9), last = first;
    while (last < sizes.size() && (last == first || used + 2 + column_width(sizes[last]) +
                                                         (last + 1 == sizes.size() ? 2 + kGeoWidth : 0) <= width))
      used += 2 + column_width(sizes[last++]);
    const bool with_mean = last == sizes.size();
    std::vector<std::string> headers = {"algorithm"};
    for (std::size_t i = first; i < last; ++i) headers.push_back(heading(sizes[i]));
    if (with_mean) headers.emplace_back("geo.mean");
    if (with_mean && compressed) headers.emplace_back("rel L2 (largest)");
    std::vector<std::vector<std::string>> rows;
    std::vector<std::vector<std::string_view>> colours;
    for (const Line& line : lines) {
      // A line whose answer is mostly error is no winner: marked, and its 1.00 not coloured as the fastest.
      const bool useless = line.largest_error && *line.largest_error > kMaxUsefulRelL2;
      beyond_bound = beyond_bound || useless;
      const std::string name = useless ? line.name + kErrorMark : line.name;
      std::vector<std::string> row = {shortened(name, name_width, abbreviated)};
      std::vector<std::string_view> row_colours = {""};
      for (std::size_t i = first; i < last; ++i) {
        const auto it = line.ratio.find(sizes[i]);
        row.push_back(it == line.ratio.end() ? "-" : fmt::format("{:.2f}", it->second));
        row_colours.push_back(it == line.ratio.end() || (useless && it->second == 1.0)
                                  ? "" : ratio_colour(it->second, it->second == 1.0));
      }
      if (with_mean) {
        row.push_back(fmt::format("{:.2f}", line.geo_mean));
        row_colours.emplace_back("");
      }
      if (with_mean && compressed) {
        row.push_back(line.largest_error ? fmt::format("{:.2e}", *line.largest_error) : "-");
        row_colours.emplace_back("");
      }
      rows.push_back(std::move(row));
      colours.push_back(std::move(row_colours));
    }
    out += aligned_table(text_columns(headers, 1), rows, [&](std::size_t row, std::size_t column) {
      return colour ? colours[row][column] : std::string_view();
    });
    first = last;
    if (first < sizes.size()) out += '\n';
  }
  return out + abbreviations_line(abbreviated, width) +
         (beyond_bound ? wrapped(kErrorLegend, width) : std::string());
}

// Per collective, variant and process count measured with two or more algorithms, its table.
std::string over_fastest(const std::vector<CaseResult>& results, std::size_t width, bool colour,
                         const SizeDoubts& doubts) {
  std::vector<const CaseResult*> measured;
  for (const CaseResult& r : results)
    if (r.measured()) measured.push_back(&r);
  std::stable_sort(measured.begin(), measured.end(),
                   [](const CaseResult* a, const CaseResult* b) { return size_order_less(a->c, b->c); });
  std::vector<std::pair<std::string, std::vector<const CaseResult*>>> groups;
  for (const CaseResult* r : measured) {
    const std::string heading =
        fmt::format("{} {}, {} processes", name(r->c.collective), variant_text(r->c), r->c.np);
    if (groups.empty() || groups.back().first != heading) groups.push_back({heading, {}});
    groups.back().second.push_back(r);
  }
  std::string out;
  for (const auto& [heading, group] : groups) {
    std::map<std::string, int> algorithms;
    for (const CaseResult* r : group) ++algorithms[algorithm_label(r->c)];
    if (algorithms.size() < 2) continue;
    out += "\n" + wrapped(fmt::format("{}: median / fastest per size", heading), width);
    out += over_fastest_table(group, width, colour, doubts);
  }
  return out;
}

}  // namespace

std::string render_terminal(const nlohmann::json& given, std::size_t width, bool colour,
                            const std::string& reproducibility) {
  const nlohmann::json report = printable_strings(given);  // a report's escape sequences must not reach the terminal
  width = std::max(width, kMinWidth);
  const std::vector<CaseResult> results = case_results_of(report);
  const std::string label = report_label(report, 1);
  std::string out = fmt::format("pico report: {}\n", label.substr(label.find(": ") + 2));
  for (const std::string& text : {report_oversubscription_text(report), report_placement_mismatch_text(report)})
    if (!text.empty())
      out += colour ? fmt::format("\033[33m{}\033[0m", wrapped("warning: " + text, width)) : wrapped("warning: " + text, width);
  out += "\n" + wrapped("summary: per size, the fastest and the default's time over it", width);
  const SizeDoubts doubts = doubt_per_size(report, results);
  out += summary(results, width, colour, doubts);
  if (colour)
    out += wrapped("default/best coloured only where the speedup's 95% interval says the fastest is faster (else "
                   "undecided, uncoloured)", width);
  out += over_fastest(results, width, colour, doubts);
  std::vector<MeasurementDoubt> per_size;
  for (const auto& [key, doubt] : doubts) per_size.push_back(doubt);
  if (const std::string legend = noise_legend(per_size, doubts.size()); !legend.empty()) {
    out += "\n";
    for (std::size_t at = 0, end; at < legend.size(); at = end + 1) {  // each line wrapped on its own
      end = legend.find('\n', at);
      out += colour ? fmt::format("\033[33m{}\033[0m", wrapped(legend.substr(at, end - at), width))
                    : wrapped(legend.substr(at, end - at), width);
    }
  }
  if (const std::string stragglers = stragglers_text(find_stragglers(report)) + slow_links_text(find_slow_links(report));
      !stragglers.empty()) {
    out += "\n";
    for (std::size_t at = 0, end; at < stragglers.size(); at = end + 1) {  // each line wrapped on its own
      end = stragglers.find('\n', at);
      out += wrapped(stragglers.substr(at, end - at), width);
    }
  }
  out += "\n" + summary_line(results);
  if (!reproducibility.empty()) out += wrapped(reproducibility.substr(0, reproducibility.find('\n')), width);
  return out;
}

}  // namespace pico
