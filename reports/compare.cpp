// SPDX-License-Identifier: BSD-3-Clause
#include "reports/compare.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/compression_bound.hpp"
#include "core/observation.hpp"
#include "reports/best_algorithm.hpp"
#include "reports/fitted_table.hpp"
#include "reports/render.hpp"
#include "reports/text_table.hpp"
#include "stats/bootstrap.hpp"
#include "support/input_error.hpp"
#include "support/printable_json.hpp"

namespace pico {
namespace {

using nlohmann::json;

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

ComparedPair compare_pair(const CaseResult& base, const CaseResult& cand, const CaseResult* library,
                          bool one_report, MeasurementDoubt doubt) {
  const double b = base.timing->median_s, k = cand.timing->median_s;
  ComparedPair row;
  row.size = SizeFields::of(cand.c);
  row.baseline = algorithm_label(base.c);
  row.candidate = algorithm_label(cand.c);
  row.baseline_from = one_report ? "this report" : "the baseline report";
  row.baseline_median_s = b;
  row.candidate_median_s = k;
  row.speedup = speedup_between(base, cand, one_report);
  row.doubt = std::move(doubt);
  if (cand.phases && cand.phases->is_array())
    for (const json& p : *cand.phases) row.breakdown.push_back({p.value("name", "?"), p.value("time_s", 0.0)});
  row.compression = cand.compression_metrics();
  row.compression_record = cand.compression ? *cand.compression : json(nullptr);
  if (library != nullptr && k > 0) {
    row.library = algorithm_label(library->c);
    row.library_speedup = library->timing->median_s / k;  // > 1: the candidate beats the library's own
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

json or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json or_null(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

void put_size(json& out, const SizeFields& s) {
  out["collective"] = s.collective, out["dtype"] = s.dtype, out["op"] = s.op, out["in_place"] = s.in_place;
  out["mode"] = s.mode, out["np"] = s.np, out["bytes"] = s.bytes;
}

}  // namespace

SizeFields SizeFields::of(const Case& c) {
  SizeFields s;
  s.collective = name(c.collective), s.dtype = name(c.dtype), s.op = name(c.op), s.mode = name(c.mode);
  s.in_place = c.in_place, s.np = c.np, s.bytes = c.bytes;
  return s;
}

std::optional<MeasuredSpeedup> speedup_between(const CaseResult& base, const CaseResult& cand, bool one_report) {
  if (!base.timing || !cand.timing || !(base.timing->median_s > 0) || !(cand.timing->median_s > 0)) return std::nullopt;
  // One report: both sides of one launch, paired where measured in the same rounds; two reports never pair.
  const std::vector<Observation> b{observation_of(base, one_report ? "report" : "baseline")};
  const std::vector<Observation> c{observation_of(cand, one_report ? "report" : "candidate")};
  return speedup_of(b, c, Objective::median);
}

void to_json(json& out, const ComparedPair& row) {
  out = json::object();
  put_size(out, row.size);
  out["baseline"] = row.baseline, out["candidate"] = row.candidate, out["baseline_from"] = row.baseline_from;
  out["baseline_median_s"] = row.baseline_median_s, out["candidate_median_s"] = row.candidate_median_s;
  out["speedup"] = row.speedup ? json(row.speedup->estimate) : json(nullptr);
  out["speedup_ci95"] = row.speedup && row.speedup->has_interval() ? json{row.speedup->low, row.speedup->high} : json(nullptr);
  out["interval"] = row.speedup ? json(row.speedup->method) : json(nullptr);
  out["verdict"] = row.verdict();
  out["noise"] = row.doubt.any() ? json(row.doubt.reasons()) : json(nullptr);
  out["breakdown"] = json::array();
  for (const PhaseTime& p : row.breakdown) out["breakdown"].push_back({{"name", p.name}, {"time_s", p.time_s}});
  out["compression"] = row.compression_record;
  out["library"] = or_null(row.library), out["library_speedup"] = or_null(row.library_speedup);
}

void to_json(json& out, const BestRow& row) {
  out = json::object();
  put_size(out, row.size);
  out["report"] = row.report, out["best"] = row.best, out["best_median_s"] = row.best_median_s;
  out["compression"] = row.compression_record;
  out["measured"] = row.measured;
  out["reference"] = or_null(row.reference), out["reference_median_s"] = or_null(row.reference_median_s);
  out["reference_loss"] = or_null(row.reference_loss);
  out["noise"] = row.doubt.any() ? json(row.doubt.reasons()) : json(nullptr);
}

std::vector<ComparedPair> compare_reports(const json& baseline, const json* candidate, const CompareOptions& options) {
  // Names shown in terminals (compare's table, report A B): a report's escape sequences escaped, not sent.
  const std::vector<CaseResult> baseline_cases = case_results_of(printable_strings(baseline));
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
    candidate_cases = case_results_of(printable_strings(*candidate));
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
  const NoiseContext baseline_noise(baseline), candidate_noise(candidate != nullptr ? *candidate : baseline);
  std::vector<ComparedPair> rows;
  for (const auto& [base, cand] : pairs) {
    const auto it = baseline_by_size.find(same_size_key(cand->c));
    MeasurementDoubt doubt = baseline_noise.doubt_of(*base);
    doubt.merge(candidate_noise.doubt_of(*cand));
    rows.push_back(compare_pair(*base, *cand,
                                library_default(it == baseline_by_size.end() ? nullptr : &it->second, *base, *cand),
                                candidate == nullptr, std::move(doubt)));
  }
  return rows;
}

std::vector<BestRow> best_per_size_rows(const json& report, const std::string& report_label,
                                        const CompareOptions& options) {
  const std::vector<CaseResult> cases = case_results_of(report);
  const std::map<std::string, MeasurementDoubt> doubts = doubt_per_size(report, cases);
  std::vector<BestRow> rows;
  for (const BestAtSize& b : best_per_size(cases, options.baseline)) {
    BestRow row;
    if (const auto it = doubts.find(same_size_key(b.best->c)); it != doubts.end()) row.doubt = it->second;
    row.size = SizeFields::of(b.best->c);
    row.report = report_label;
    row.best = algorithm_label(b.best->c);
    row.best_median_s = b.best_s;
    row.compression = b.best->compression_metrics();
    row.compression_record = b.best->compression ? *b.best->compression : json(nullptr);
    row.measured = b.measured;
    if (b.reference) {
      row.reference = algorithm_label(b.reference->c);
      row.reference_median_s = b.reference_s;
      row.reference_loss = b.reference_over_best() - 1;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// ---------------------------------------------------------------- text cells

std::string number(const std::optional<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : "-";
}

// Microseconds to the nanosecond: the small sizes' medians are a few microseconds.
std::string us(const std::optional<double>& seconds) { return seconds ? fmt::format("{:.3f}", *seconds * 1e6) : "-"; }

// Full precision for CSV readers (csv_number, as every CSV writes them); empty for none.
std::string csv_value(const std::optional<double>& v) { return v ? csv_number(*v) : std::string(); }

std::string breakdown_text(const std::vector<PhaseTime>& phases) {
  std::string out;
  for (const PhaseTime& phase : phases) out += (out.empty() ? "" : " ") + phase.name + "=" + us(phase.time_s);
  return out.empty() ? "-" : out;
}

std::vector<std::string> size_cells(const SizeFields& s, bool csv) {
  return {s.collective, s.dtype, s.op, s.in_place ? (csv ? "true" : "yes") : (csv ? "false" : "no"), s.mode,
          fmt::format("{}", s.np), csv ? fmt::format("{}", s.bytes) : size_text(s.bytes)};
}

constexpr TextColumn kCompareColumns[] = {
    {"collective", false}, {"dtype", false},      {"op", false},        {"in_place", false},
    {"mode", false},       {"np", true},          {"size", true},       {"baseline", false},
    {"candidate", false},  {"base(us)", true},    {"cand(us)", true},   {"speedup", true},
    {"95% CI", false},     {"verdict", false},    {"bits/elem", true},  {"rel_l2", true},
    {"bias", true},        {"identical", false},  {"vs library", true},  {"breakdown(us)", false},
};

constexpr std::size_t kCandidateColumn = 8;
static_assert(kCompareColumns[kCandidateColumn].header == "candidate");
// Given up in this order where the table is still too wide (reports/fitted_table.hpp): the speedup, its interval
// and the verdict stay; the times they come from go last.
constexpr std::size_t kCompareOptional[] = {18, 19, 16, 17, 9, 10};
static_assert(kCompareColumns[18].header == "vs library" && kCompareColumns[19].header == "breakdown(us)" &&
              kCompareColumns[16].header == "bias" && kCompareColumns[17].header == "identical" &&
              kCompareColumns[9].header == "base(us)" && kCompareColumns[10].header == "cand(us)");

// The rows' distinct values of `field`, in first-seen order, joined by ", ".
template <class Field>
std::string distinct(const std::vector<ComparedPair>& rows, Field field) {
  std::vector<std::string> seen;
  for (const ComparedPair& row : rows)
    if (const std::optional<std::string> v = field(row); v && !v->empty() && std::find(seen.begin(), seen.end(), *v) == seen.end())
      seen.push_back(*v);
  std::string joined;
  for (const std::string& v : seen) joined += (joined.empty() ? "" : ", ") + v;
  return joined;
}

// Which baseline the speedups are against, said before the rows: a compressed
// run's default baseline is pico's dense allreduce, not the library's.
std::string baseline_line(const std::vector<ComparedPair>& rows) {
  // Two reports: each case against its counterpart in the baseline report (the heading names that report);
  // listing every algorithm there read as the baseline being 31 algorithms at once.
  const bool two_reports = std::any_of(rows.begin(), rows.end(), [](const ComparedPair& row) {
    return row.baseline_from == "the baseline report";
  });
  std::string out =
      two_reports ? std::string("baseline: the same case in the baseline report\n")
                  : fmt::format("baseline: {} (another with --baseline-case BACKEND:ALGORITHM)\n",
                                distinct(rows, [](const ComparedPair& r) { return std::optional(r.baseline); }));
  // What the speedup, its interval and the verdict are, said where they are printed (core/speedup.hpp).
  out += fmt::format("{}\nintervals here: {}\n", kSpeedupDefinition, distinct(rows, [](const ComparedPair& r) {
                       return r.speedup ? std::optional(r.speedup->method) : std::nullopt;
                     }));
  if (const std::string libraries = distinct(rows, [](const ComparedPair& r) { return r.library; }); !libraries.empty())
    out += fmt::format("vs library: {} median / candidate median, the library's own collective at that size\n",
                       libraries);
  return wrapped(out, kProseWidth, "  ");  // each line in 100 columns, as the table under it
}

std::string identical_text(const CompressionMetrics& m, bool csv) {
  if (!m.identical_across_ranks) return csv ? "" : "-";
  if (csv) return *m.identical_across_ranks ? "true" : "false";
  return *m.identical_across_ranks ? "yes" : "NO";
}

// A verdict the two cases' measurement cannot support, marked (core/noise_guard.hpp).
// "faster" for a candidate whose answer is mostly error is marked (core/compression_metrics.hpp).
std::string marked_verdict(const ComparedPair& row) {
  return row.verdict() + (beyond_error_bound(row.compression) ? kErrorMark : "") +
         (row.doubt.any() ? std::string(kNoiseMark) : "");
}

std::string error_bound_line(const std::vector<ComparedPair>& rows) {
  const bool any = std::any_of(rows.begin(), rows.end(), [](const ComparedPair& r) { return beyond_error_bound(r.compression); });
  return any ? std::string(kErrorLegend) + "\n" : std::string();
}

// Under the table: each marked size once, why, and how to measure better.
std::string noise_lines(const std::vector<ComparedPair>& rows) {
  std::map<std::string, MeasurementDoubt> per_size;
  for (const ComparedPair& row : rows) {
    const SizeFields& s = row.size;
    per_size[fmt::format("{} {} {} {} {} {} {}", s.collective, s.dtype, s.op, s.in_place, s.mode, s.np, s.bytes)]
        .merge(row.doubt);
  }
  std::vector<MeasurementDoubt> doubts;
  for (const auto& [key, doubt] : per_size) doubts.push_back(doubt);
  return noise_legend(doubts, per_size.size());
}

std::vector<std::string> compare_cells(const ComparedPair& row) {
  const CompressionMetrics& m = row.compression;
  const auto& s = row.speedup;
  std::vector<std::string> cells = size_cells(row.size, false);
  for (std::string cell : {row.baseline, row.candidate, us(row.baseline_median_s), us(row.candidate_median_s),
                           s ? speedup_estimate_text(*s) : std::string("-"),
                           s ? speedup_interval_text(*s) : std::string("-"), marked_verdict(row),
                           number(m.bits_per_element, "{:.2f}"), number(m.rel_l2_error, "{:.3e}"),
                           number(m.bias_rel_l2, "{:.3e}"), identical_text(m, false),
                           row.library_speedup ? speedup_figure(*row.library_speedup) + "x" : std::string("-"),
                           breakdown_text(row.breakdown)})
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

std::vector<std::string> compare_csv_values(const ComparedPair& row) {
  const CompressionMetrics& m = row.compression;
  const auto& s = row.speedup;
  std::vector<std::string> values = size_cells(row.size, true);
  for (std::string v : {row.baseline, row.candidate, csv_value(row.baseline_median_s),
                        csv_value(row.candidate_median_s), s ? csv_value(s->estimate) : std::string(),
                        s && s->has_interval() ? csv_value(s->low) : std::string(),
                        s && s->has_interval() ? csv_value(s->high) : std::string(), row.verdict(),
                        csv_value(m.bits_per_element), csv_value(m.rel_l2_error), csv_value(m.bias_rel_l2),
                        identical_text(m, true), row.breakdown.empty() ? std::string() : breakdown_text(row.breakdown),
                        row.library.value_or(""), csv_value(row.library_speedup)})
    values.push_back(std::move(v));
  return values;
}

constexpr TextColumn kBestColumns[] = {
    {"report", false}, {"collective", false}, {"dtype", false},     {"op", false},        {"in_place", false},
    {"mode", false},   {"np", true},          {"size", true},       {"best", false},      {"best(us)", true},
    {"best rel L2", true}, {"reference", false}, {"ref(us)", true},  {"ref loss", true},   {"cases", true},
};

constexpr std::size_t kBestNameColumn = 8;
static_assert(kBestColumns[kBestNameColumn].header == "best");
constexpr std::size_t kBestOptional[] = {14, 12, 9};  // cases, ref(us), best(us): the loss says what they do
static_assert(kBestColumns[14].header == "cases" && kBestColumns[12].header == "ref(us)" &&
              kBestColumns[9].header == "best(us)");

std::string loss_text(const std::optional<double>& loss) { return loss ? fmt::format("{:+.1f}%", *loss * 100) : "-"; }

std::vector<std::string> best_cells(const BestRow& row, bool csv) {
  std::vector<std::string> cells = {row.report};
  for (std::string& c : size_cells(row.size, csv)) cells.push_back(std::move(c));
  const std::optional<double>& error = row.compression.rel_l2_error;
  const std::string mark = !csv && row.doubt.any() ? std::string(kNoiseMark) : "";
  const std::string error_mark = !csv && beyond_error_bound(row.compression) ? kErrorMark : "";
  for (std::string c : {row.best + error_mark + mark, csv ? csv_value(row.best_median_s) : us(row.best_median_s),
                        csv ? csv_value(error) : number(error, "{:.3e}"),
                        row.reference.value_or(csv ? "" : "-"),
                        csv ? csv_value(row.reference_median_s) : us(row.reference_median_s),
                        csv ? csv_value(row.reference_loss) : loss_text(row.reference_loss),
                        fmt::format("{}", row.measured)})
    cells.push_back(std::move(c));
  return cells;
}

const std::vector<std::string> kBestCsvHeader = {
    "report", "collective", "dtype",     "op",                 "in_place",       "mode",     "np",
    "bytes",  "best",       "best_median_s", "best_rel_l2_error", "reference", "reference_median_s", "reference_loss",
    "measured"};

}  // namespace

std::string render_compare_table(const std::vector<ComparedPair>& rows, std::size_t width) {
  std::vector<std::vector<std::string>> table;
  for (const ComparedPair& row : rows) table.push_back(compare_cells(row));
  return baseline_line(rows) + fitted_table(kCompareColumns, table, width, {}, {kCandidateColumn},
                                                {std::begin(kCompareOptional), std::end(kCompareOptional)}) +
         error_bound_line(rows) + noise_lines(rows);
}

std::string render_compare_summary(const std::vector<ComparedPair>& rows, std::size_t width) {
  static constexpr TextColumn kColumns[] = {
      {"collective", false}, {"np", true},       {"size", true},      {"baseline", false}, {"candidate", false},
      {"base(us)", true},    {"cand(us)", true}, {"speedup", true},   {"95% CI", false},   {"verdict", false}};
  std::vector<std::vector<std::string>> table;
  for (const ComparedPair& row : rows) {
    const auto& s = row.speedup;
    table.push_back({row.size.collective, fmt::format("{}", row.size.np), size_text(row.size.bytes), row.baseline,
                     row.candidate, us(row.baseline_median_s), us(row.candidate_median_s),
                     s ? speedup_estimate_text(*s) : std::string("-"), s ? speedup_interval_text(*s) : std::string("-"),
                     marked_verdict(row)});
  }
  return baseline_line(rows) + fitted_table(kColumns, table, width, {}, {4}, {5, 6}) + error_bound_line(rows) +
         noise_lines(rows);
}

std::string render_compare_csv(const std::vector<ComparedPair>& rows) {
  std::string out = csv_record(kCompareCsvHeader);
  for (const ComparedPair& row : rows) out += csv_record(compare_csv_values(row));
  return out;
}

std::string render_best_table(const std::vector<BestRow>& rows, std::size_t width) {
  std::vector<std::vector<std::string>> table;
  for (const BestRow& row : rows) table.push_back(best_cells(row, false));
  // A report is named by its path, most of a line: where the table is too wide, by its number, the path above.
  std::string reports;
  if (table_width(kBestColumns, table) > width) {
    std::vector<std::string> seen;
    for (auto& cells : table) {
      auto it = std::find(seen.begin(), seen.end(), cells[0]);
      if (it == seen.end()) {
        reports += wrapped(fmt::format("report {}: {}", seen.size() + 1, cells[0]), kProseWidth, "  ");
        it = seen.insert(seen.end(), cells[0]);
      }
      cells[0] = fmt::format("{}", it - seen.begin() + 1);
    }
  }
  std::vector<MeasurementDoubt> doubts;
  for (const BestRow& row : rows) doubts.push_back(row.doubt);
  const bool beyond = std::any_of(rows.begin(), rows.end(), [](const BestRow& r) { return beyond_error_bound(r.compression); });
  return reports +
         fitted_table(kBestColumns, table, width, {}, {kBestNameColumn}, {std::begin(kBestOptional), std::end(kBestOptional)}) + (beyond ? std::string(kErrorLegend) + "\n" : "") +
         noise_legend(doubts, rows.size());
}

std::string render_best_csv(const std::vector<BestRow>& rows) {
  std::string out = csv_record(kBestCsvHeader);
  for (const BestRow& row : rows) out += csv_record(best_cells(row, true));
  return out;
}

}  // namespace pico
