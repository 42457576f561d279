// SPDX-License-Identifier: BSD-3-Clause
#include "reports/compare.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/bootstrap.hpp"
#include "core/case_result.hpp"
#include "core/input_error.hpp"
#include "reports/best_algorithm.hpp"
#include "reports/render.hpp"
#include "reports/text_table.hpp"

namespace pico {
namespace {

using nlohmann::json;

// The fields that tell two sizes apart, first in every row.
json size_fields(const Case& c) {
  return {{"collective", name(c.collective)}, {"dtype", name(c.dtype)}, {"op", name(c.op)},
          {"in_place", c.in_place},           {"mode", name(c.mode)},   {"np", c.np},
          {"bytes", c.bytes}};
}

// The library's own collective at the candidate's size (mpi/default, or
// nccl/default beside GPU cases), where it is not already the baseline: what a
// compressed allreduce must also beat, since the dense one pico runs may be
// slower than the library's (issue 36: compressed/dense was 1.54x mpi/default).
const CaseResult* library_default(const std::vector<const CaseResult*>* same_size, const CaseResult& base,
                                  const CaseResult& cand) {
  if (same_size == nullptr) return nullptr;
  for (const char* selector : {"mpi:default", "nccl:default"})
    for (const CaseResult* r : *same_size)
      if (selector == r->c.backend + ":" + r->c.algorithm)
        return r->c.case_id == base.c.case_id || r->c.case_id == cand.c.case_id ? nullptr : r;
  return nullptr;
}

// Both cases' rounds or samples resampled (core/bootstrap.hpp): paired round
// by round when both were measured in the same rounds of one launch (one
// report); else each on its own. The speedup's estimate and interval, or
// nullopt where neither case kept rounds nor samples.
std::optional<RatioInterval> resampled_speedup(const CaseResult& base, const CaseResult& cand, bool one_report) {
  const std::vector<Observation> b{observation_of(base, one_report ? "report" : "baseline")};
  const std::vector<Observation> c{observation_of(cand, one_report ? "report" : "candidate")};
  return bootstrap_speedup(b, c, Objective::median);
}

json compare_pair(const CaseResult& base, const CaseResult& cand, const CaseResult* library, bool one_report) {
  const TimingStats& bt = *base.timing;
  const TimingStats& kt = *cand.timing;
  const double b = bt.median_s, k = kt.median_s;
  json row = size_fields(cand.c);
  row["baseline"] = algorithm_label(base.c);
  row["candidate"] = algorithm_label(cand.c);
  row["baseline_from"] = one_report ? "this report" : "the baseline report";
  row["baseline_median_s"] = b;
  row["candidate_median_s"] = k;
  if (k > 0 && b > 0) {
    double low = 0, high = 0;
    if (const auto boot = resampled_speedup(base, cand, one_report)) {
      row["speedup"] = boot->estimate;
      low = boot->low, high = boot->high;
      row["interval"] = boot->method;
    } else {
      // Both medians' 95% intervals at their unfavourable ends: a conservative interval of the ratio.
      low = bt.ci95_low_s / kt.ci95_high_s;
      high = kt.ci95_low_s > 0 ? bt.ci95_high_s / kt.ci95_low_s : b / k;
      row["speedup"] = b / k;
      row["interval"] = "envelope of the medians' 95% intervals";
    }
    row["speedup_ci95"] = {low, high};
    row["verdict"] = low > 1 ? "faster" : high < 1 ? "slower" : "indistinguishable";
  } else {
    row["speedup"] = nullptr;
    row["speedup_ci95"] = nullptr;
    row["interval"] = nullptr;
    row["verdict"] = "unmeasured";
  }
  // In the order the algorithm runs its phases.
  json breakdown = json::array();
  if (cand.phases && cand.phases->is_array())
    for (const json& p : *cand.phases) breakdown.push_back({{"name", p.value("name", "?")}, {"time_s", p.value("time_s", 0.0)}});
  row["breakdown"] = breakdown;
  row["compression"] = cand.compression ? *cand.compression : json(nullptr);
  if (library != nullptr && k > 0) {
    row["library"] = algorithm_label(library->c);
    row["library_speedup"] = library->timing->median_s / k;  // > 1: the candidate beats the library's own
  } else {
    row["library"] = nullptr;
    row["library_speedup"] = nullptr;
  }
  return row;
}

using Pair = std::pair<const CaseResult*, const CaseResult*>;  // baseline, candidate

bool pair_less(const Pair& a, const Pair& b) {
  if (size_order_less(a.second->c, b.second->c)) return true;
  if (size_order_less(b.second->c, a.second->c)) return false;
  return std::make_pair(algorithm_label(a.first->c), algorithm_label(a.second->c)) <
         std::make_pair(algorithm_label(b.first->c), algorithm_label(b.second->c));
}

}  // namespace

json compare_reports(const json& baseline, const json* candidate, const CompareOptions& options) {
  const std::vector<CaseResult> baseline_cases = case_results_of(baseline);
  std::map<std::string, std::vector<const CaseResult*>> baseline_by_size;
  std::map<std::string, const CaseResult*> baseline_by_id;
  for (const CaseResult& r : baseline_cases) {
    if (!r.measured()) continue;
    baseline_by_size[same_size_key(r.c)].push_back(&r);
    baseline_by_id[r.c.case_id] = &r;
  }
  std::vector<CaseResult> candidate_cases;
  std::vector<Pair> pairs;
  if (candidate != nullptr) {
    candidate_cases = case_results_of(*candidate);
    for (const CaseResult& r : candidate_cases) {
      if (!r.measured()) continue;
      const CaseResult* base = nullptr;
      if (auto it = baseline_by_id.find(r.c.case_id); it != baseline_by_id.end()) base = it->second;
      if (base == nullptr)
        if (auto it = baseline_by_size.find(same_size_key(r.c)); it != baseline_by_size.end())
          base = reference_case(it->second, options.baseline);
      if (base != nullptr) pairs.emplace_back(base, &r);
    }
  } else {
    for (const auto& [key, group] : baseline_by_size) {
      const CaseResult* base = reference_case(group, options.baseline);
      if (base == nullptr || group.size() < 2) continue;
      for (const CaseResult* r : group)
        if (r != base) pairs.emplace_back(base, r);
    }
  }
  if (pairs.empty())
    throw InputError("pico compare",
                     candidate != nullptr ? "no measured case of the candidate matches one of the baseline (same "
                                            "collective, dtype, op, count, ranks and mode)"
                                          : "no size has both a baseline case and another measured case",
                     candidate != nullptr ? "compare reports of the same experiment, e.g. one per library or machine"
                                          : "name the baseline with --baseline-case BACKEND:ALGORITHM");
  std::stable_sort(pairs.begin(), pairs.end(), pair_less);
  json rows = json::array();
  for (const auto& [base, cand] : pairs) {
    const auto it = baseline_by_size.find(same_size_key(cand->c));
    rows.push_back(compare_pair(*base, *cand,
                                library_default(it == baseline_by_size.end() ? nullptr : &it->second, *base, *cand),
                                candidate == nullptr));
  }
  return rows;
}

json best_per_size_rows(const json& report, const std::string& report_label, const CompareOptions& options) {
  const std::vector<CaseResult> cases = case_results_of(report);
  json rows = json::array();
  for (const BestAtSize& b : best_per_size(cases, options.baseline)) {
    json row = size_fields(b.best->c);
    row["report"] = report_label;
    row["best"] = algorithm_label(b.best->c);
    row["best_median_s"] = b.best->timing->median_s;
    // A compressed "best" is never shown without its error (null: an exact algorithm).
    row["compression"] = b.best->compression ? *b.best->compression : json(nullptr);
    row["measured"] = b.measured;
    row["reference"] = b.reference ? json(algorithm_label(b.reference->c)) : json(nullptr);
    row["reference_median_s"] = b.reference ? json(b.reference->timing->median_s) : json(nullptr);
    row["reference_loss"] = b.reference ? json(b.reference_over_best() - 1) : json(nullptr);
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// ---------------------------------------------------------------- text cells

std::string number(const json& v, const char* format) {
  if (!v.is_number()) return "-";
  return fmt::format(fmt::runtime(format), v.get<double>());
}

// Microseconds to the nanosecond: the small sizes' medians are a few microseconds.
std::string us(const json& seconds) { return seconds.is_number() ? fmt::format("{:.3f}", seconds.get<double>() * 1e6) : "-"; }

// Full precision for CSV readers; empty for null.
// Integers as they are, other numbers as every CSV writes them (csv_number); empty for null.
std::string csv_value(const json& v) {
  if (v.is_number_integer()) return v.dump();
  return v.is_number() ? csv_number(v.get<double>()) : std::string();
}

std::string text(const json& row, const char* key) { return row[key].is_string() ? row[key].get<std::string>() : ""; }

std::string breakdown_text(const json& b) {
  std::string out;
  for (const json& phase : b) out += (out.empty() ? "" : " ") + phase.value("name", "?") + "=" + us(phase["time_s"]);
  return out.empty() ? "-" : out;
}

// A row's compression numbers (the candidate's or the best's record), typed; null where absent.
CompressionMetrics metrics(const json& row) { return CompressionMetrics::of(row["compression"]); }
json or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::vector<std::string> size_cells(const json& row, bool csv) {
  return {text(row, "collective"), text(row, "dtype"), text(row, "op"),
          row.value("in_place", false) ? (csv ? "true" : "yes") : (csv ? "false" : "no"), text(row, "mode"),
          fmt::format("{}", row.value("np", 0)),
          csv ? fmt::format("{}", row.value("bytes", 0ULL)) : size_text(row.value("bytes", 0ULL))};
}

constexpr TextColumn kCompareColumns[] = {
    {"collective", false}, {"dtype", false},      {"op", false},        {"in_place", false},
    {"mode", false},       {"np", true},          {"size", true},       {"baseline", false},
    {"candidate", false},  {"base(us)", true},    {"cand(us)", true},   {"speedup", true},
    {"95% CI", false},     {"verdict", false},    {"bits/elem", true},  {"rel_l2", true},
    {"bias", true},        {"identical", false},  {"vs library", true},  {"breakdown(us)", false},
};

// Which baseline the speedups are against, said before the rows: a compressed
// run's default baseline is pico's dense allreduce, not the library's.
std::string baseline_line(const json& rows) {
  // The rows' distinct labels under `key`, in first-seen order, joined by ", ".
  const auto distinct = [&rows](const char* key) {
    std::vector<std::string> seen;
    for (const json& row : rows)
      if (const std::string v = text(row, key); !v.empty() && std::find(seen.begin(), seen.end(), v) == seen.end())
        seen.push_back(v);
    std::string joined;
    for (const std::string& v : seen) joined += (joined.empty() ? "" : ", ") + v;
    return joined;
  };
  // Two reports: each case against its counterpart in the baseline report (the heading names that report);
  // listing every algorithm there read as the baseline being 31 algorithms at once.
  const bool two_reports = std::any_of(rows.begin(), rows.end(), [](const json& row) {
    return text(row, "baseline_from") == "the baseline report";
  });
  std::string out =
      two_reports ? std::string("baseline: the same case in the baseline report (speedup = baseline median / candidate "
                                "median)\n")
                  : fmt::format("baseline: {} (speedup = baseline median / candidate median; another with "
                                "--baseline-case BACKEND:ALGORITHM)\n", distinct("baseline"));
  if (const std::string libraries = distinct("library"); !libraries.empty())
    out += fmt::format("vs library: {} median / candidate median, the library's own collective at that size\n",
                       libraries);
  return out;
}

std::string identical_text(const json& row, bool csv) {
  const std::optional<bool> identical = metrics(row).identical_across_ranks;
  if (!identical) return csv ? "" : "-";
  if (csv) return *identical ? "true" : "false";
  return *identical ? "yes" : "NO";
}

std::vector<std::string> compare_cells(const json& row) {
  const json& ci = row["speedup_ci95"];
  const CompressionMetrics m = metrics(row);
  std::vector<std::string> cells = size_cells(row, false);
  for (std::string cell : {text(row, "baseline"), text(row, "candidate"), us(row["baseline_median_s"]),
                           us(row["candidate_median_s"]), number(row["speedup"], "{:.3f}x"),
                           ci.is_array() ? fmt::format("[{:.3f}, {:.3f}]", ci[0].get<double>(), ci[1].get<double>())
                                         : std::string("-"),
                           text(row, "verdict"), number(or_null(m.bits_per_element), "{:.2f}"),
                           number(or_null(m.rel_l2_error), "{:.3e}"), number(or_null(m.bias_rel_l2), "{:.3e}"),
                           identical_text(row, false), number(row["library_speedup"], "{:.3f}x"),
                           breakdown_text(row["breakdown"])})
    cells.push_back(std::move(cell));
  return cells;
}

// The CSV columns, in order; docs/report.md#compare-csv lists them.
const std::vector<std::string> kCompareCsvHeader = {
    "collective",         "dtype",   "op",          "in_place",        "mode",
    "np",                 "bytes",   "baseline",    "candidate",       "baseline_median_s",
    "candidate_median_s", "speedup", "speedup_ci95_low", "speedup_ci95_high", "verdict",
    CompressionMetrics::kBitsPerElement, CompressionMetrics::kRelL2Error, CompressionMetrics::kBiasRelL2,
    CompressionMetrics::kIdenticalAcrossRanks, "breakdown_us",
    "library",            "library_speedup"};

std::vector<std::string> compare_csv_values(const json& row) {
  const json& ci = row["speedup_ci95"];
  const CompressionMetrics m = metrics(row);
  std::vector<std::string> values = size_cells(row, true);
  for (std::string v : {text(row, "baseline"), text(row, "candidate"), csv_value(row["baseline_median_s"]),
                        csv_value(row["candidate_median_s"]), csv_value(row["speedup"]),
                        ci.is_array() ? csv_value(ci[0]) : std::string(), ci.is_array() ? csv_value(ci[1]) : std::string(),
                        text(row, "verdict"), csv_value(or_null(m.bits_per_element)),
                        csv_value(or_null(m.rel_l2_error)), csv_value(or_null(m.bias_rel_l2)),
                        identical_text(row, true),
                        row["breakdown"].empty() ? std::string() : breakdown_text(row["breakdown"]),
                        text(row, "library"), csv_value(row["library_speedup"])})
    values.push_back(std::move(v));
  return values;
}

constexpr TextColumn kBestColumns[] = {
    {"report", false}, {"collective", false}, {"dtype", false},     {"op", false},        {"in_place", false},
    {"mode", false},   {"np", true},          {"size", true},       {"best", false},      {"best(us)", true},
    {"best rel L2", true}, {"reference", false}, {"ref(us)", true},  {"ref loss", true},   {"cases", true},
};

std::string loss_text(const json& loss) { return loss.is_number() ? fmt::format("{:+.1f}%", loss.get<double>() * 100) : "-"; }

std::vector<std::string> best_cells(const json& row, bool csv) {
  std::vector<std::string> cells = {text(row, "report")};
  for (std::string& c : size_cells(row, csv)) cells.push_back(std::move(c));
  const bool has_reference = row["reference"].is_string();
  const json error = or_null(metrics(row).rel_l2_error);
  for (std::string c : {text(row, "best"), csv ? csv_value(row["best_median_s"]) : us(row["best_median_s"]),
                        csv ? csv_value(error) : number(error, "{:.3e}"),
                        has_reference ? text(row, "reference") : std::string(csv ? "" : "-"),
                        csv ? csv_value(row["reference_median_s"]) : us(row["reference_median_s"]),
                        csv ? csv_value(row["reference_loss"]) : loss_text(row["reference_loss"]),
                        fmt::format("{}", row.value("measured", 0))})
    cells.push_back(std::move(c));
  return cells;
}

const std::vector<std::string> kBestCsvHeader = {
    "report", "collective", "dtype",     "op",                 "in_place",       "mode",     "np",
    "bytes",  "best",       "best_median_s", "best_rel_l2_error", "reference", "reference_median_s", "reference_loss",
    "measured"};

}  // namespace

std::string render_compare_table(const json& rows) {
  std::vector<std::vector<std::string>> table;
  for (const json& row : rows) table.push_back(compare_cells(row));
  return baseline_line(rows) + aligned_table(kCompareColumns, table);
}

std::string render_compare_csv(const json& rows) {
  std::string out = csv_record(kCompareCsvHeader);
  for (const json& row : rows) out += csv_record(compare_csv_values(row));
  return out;
}

std::string render_best_table(const json& rows) {
  std::vector<std::vector<std::string>> table;
  for (const json& row : rows) table.push_back(best_cells(row, false));
  return aligned_table(kBestColumns, table);
}

std::string render_best_csv(const json& rows) {
  std::string out = csv_record(kBestCsvHeader);
  for (const json& row : rows) out += csv_record(best_cells(row, true));
  return out;
}

}  // namespace pico
