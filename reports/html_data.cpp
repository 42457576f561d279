// SPDX-License-Identifier: BSD-3-Clause
#include "reports/html_data.hpp"

#include <map>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/case_result.hpp"
#include "core/compression_bound.hpp"
#include "core/noise_guard.hpp"
#include "core/oversubscription.hpp"
#include "core/placement_mismatch.hpp"
#include "core/report_facts.hpp"
#include "reports/best_algorithm.hpp"
#include "reports/compare.hpp"
#include "reports/html_stragglers.hpp"
#include "reports/render.hpp"
#include "reports/text_table.hpp"

namespace pico {
namespace {

using nlohmann::json;

// Repeated strings (collective names, algorithm labels, reasons) stored once:
// a 10,000-case report repeats a few dozen of them.
class StringTable {
 public:
  int index(const std::string& s) {
    auto [it, added] = indices_.try_emplace(s, static_cast<int>(strings_.size()));
    if (added) strings_.push_back(s);
    return it->second;
  }
  const json& strings() const { return strings_; }

 private:
  std::map<std::string, int> indices_;
  json strings_ = json::array();
};

struct Table {
  std::vector<std::string> columns;
  std::vector<std::string> string_columns;  // the columns holding StringTable indices
  json rows = json::array();
  json to_json() const { return {{"columns", columns}, {"strings", string_columns}, {"rows", rows}}; }
};

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The validation outcome belongs to the status a reader sees: a timed case
// whose validation failed is marked apart from one that never ran.
std::string shown_status(const CaseResult& r) {
  if (r.validation.status == "failed") return "validation failed";
  return std::string(name(r.status));
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : "\n") + line;
  return out;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string hosts_text(const ReportFacts& f) {
  std::vector<std::string> lines;
  for (const ReportHost& host : f.hosts) {
    std::string line = fmt::format("{}: {} rank(s)", host.name.empty() ? "?" : host.name, host.ranks);
    if (const auto& t = host.topology)
      line += fmt::format(", {} package(s), {} NUMA node(s), {} cores, {} PUs", t->packages, t->numa_nodes, t->cores,
                          t->pus);
    lines.push_back(std::move(line));
  }
  return joined_lines(lines);
}

std::string commands_text(const ReportFacts& f) {
  std::vector<std::string> lines;
  for (const auto& argv : f.launch_commands) lines.push_back(fmt::format("{}", fmt::join(argv, " ")));
  return joined_lines(lines);
}

std::string env_text(const ReportFacts& f) {
  std::vector<std::string> lines;
  for (const auto& [k, v] : f.env) lines.push_back(k + "=" + v);
  return joined_lines(lines);
}

std::string optional_text(const auto& v) { return v ? fmt::format("{}", *v) : ""; }

// The GPUs rank 0's node offered (their names), "none" where the census found none; "" without the NCCL backend.
std::string gpu_text(const ReportFacts& f) {
  if (!f.gpu_devices) return "";
  if (!f.gpu_devices->is_array()) return f.gpu_devices->dump();
  std::vector<std::string> names;
  for (const json& d : *f.gpu_devices) names.push_back(d.is_string() ? d.get<std::string>() : d.dump());
  return names.empty() ? "none on rank 0's node" : fmt::format("{}", fmt::join(names, ", "));
}

// The provenance a reader compares between reports, as name/value rows.
json provenance_rows(const LabelledReport& r) {
  const ReportFacts f = report_facts(r.report);
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"results", r.path},
      {"pico", fmt::format("{} ({}, {})", f.pico_version, f.pico_git_hash, f.pico_build_type)},
      {"experiment", fmt::format("{} ({})", f.experiment.name, f.experiment.path)},
      {"platform", fmt::format("{} ({})", f.platform, f.platform_path)},
      {"run", fmt::format("{} to {}, {} s in {} launch(es)", f.started_utc, f.finished_utc, optional_text(f.wall_s),
                          optional_text(f.launches))},
      {"MPI library", first_line(f.mpi_library_version)},
      {"MPI standard", f.mpi_standard},
      {"hosts", hosts_text(f)},
      {"rank placement", f.several_nodes ? joined_lines(f.placements) : ""},
      {"GPU devices", gpu_text(f)},
      {"launch commands", commands_text(f)},
      {"environment (rank 0)", env_text(f)},
      {"front end", fmt::format("{}@{}", f.user, f.hostname)},
  };
  json out = json::array();
  for (const auto& [k, v] : rows)
    if (!v.empty()) out.push_back({k, v});
  return out;
}

// What the library said it ran for a default case (selection.actual), as a
// string-table index, or null.
json ran_by(const CaseResult* r, StringTable& strings) {
  if (r == nullptr || !r->selection || !r->selection->actual || r->selection->actual->algorithm.empty())
    return nullptr;
  return strings.index(r->selection->actual->algorithm);
}

// The figure pico compare prints (reports/compare.hpp's speedup_between),
// as the page shows it: the page reads these, it computes none of its own.
json speedup_fields(const std::optional<MeasuredSpeedup>& s, StringTable& strings) {
  if (!s) return json::array({nullptr, nullptr, nullptr, nullptr, nullptr, nullptr});
  // The text as the terminal prints it (core/speedup's figures: no 0.000x below 0.001), for the page to show.
  const std::string text =
      speedup_estimate_text(*s) + (s->has_interval() ? " " + speedup_interval_text(*s) : std::string());
  return json::array({s->estimate, s->has_interval() ? json(s->low) : json(nullptr),
                      s->has_interval() ? json(s->high) : json(nullptr), strings.index(std::string(s->verdict())),
                      strings.index(s->method), text});
}

// A case the page ranks and compares: measured, and its answer not wrong.
bool comparable(const CaseResult& r) { return r.measured() && r.validation.status != "failed"; }

}  // namespace

std::string report_label(const json& report, std::size_t number, const std::string& user_label) {
  if (!user_label.empty()) return fmt::format("{}: {}", number, user_label);
  const ReportFacts f = report_facts(report);
  std::string label = fmt::format("{}: {} on {}", number, f.experiment.name, f.platform);
  if (!f.mpi_library.empty() && f.mpi_library != "unknown") label += fmt::format(", {} {}", f.mpi_library, f.mpi_version);
  // "2026-11-28T20:38:00Z" as "2026-11-28 20:38".
  if (f.started_utc.size() >= 16 && f.started_utc[10] == 'T')
    label += fmt::format(", {} {}", f.started_utc.substr(0, 10), f.started_utc.substr(11, 5));
  return label;
}

json html_page_data(const std::vector<LabelledReport>& reports) {
  StringTable strings;
  Table cases{{"report", "collective", "backend", "algorithm", "dtype", "op", "np", "bytes", "size", "in_place",
               "mode", "status", "reason", "median_s", "ci95_low_s", "ci95_high_s", "busbw_GBps", "noise"},
              {"report", "collective", "backend", "algorithm", "dtype", "op", "size", "mode", "status", "reason",
               "noise"}};
  Table phases{{"case", "phase", "time_s"}, {"phase"}};
  Table compression{{"case", "rel_l2_error", "bits_per_element"}, {}};
  Table overlap{{"case", "overlap_percent", "pure_comm_s", "overall_s", "compute_s"}, {}};
  // Per size: the fastest case, the reference (the default) and what the
  // library said it ran for it, and the fastest's compression error (a
  // compressed winner is never shown without its error).
  // A later report's rows also carry the speedup of report 1's fastest at that size over this one's.
  Table best{{"report", "collective", "dtype", "op", "in_place", "mode", "np", "bytes", "size", "best",
              "best_median_s", "reference", "reference_median_s", "reference_ran", "best_rel_l2_error", "speedup",
              "speedup_low", "speedup_high", "verdict", "interval", "speedup_text", "noise", "beyond_error_bound"},
             {"report", "collective", "dtype", "op", "mode", "size", "best", "reference", "reference_ran", "verdict",
              "interval", "noise"}};
  // Each case of a later report against the same case (case_id) of report 1.
  Table compared{{"case", "baseline_case", "speedup", "speedup_low", "speedup_high", "verdict", "interval",
                  "speedup_text"},
                 {"verdict", "interval"}};
  json described = json::array();
  std::vector<CaseResult> first_results;
  // Report 1's comparable cases: case_id -> its row in `cases` and its record.
  std::map<std::string, std::pair<std::size_t, const CaseResult*>> first_rows;
  std::map<std::string, const CaseResult*> first_best;  // report 1's fastest per size (same_size_key)
  for (const LabelledReport& r : reports) {
    const int report = strings.index(r.label);
    const bool first = &r == &reports.front();
    std::vector<CaseResult> later_results;
    if (first) first_results = case_results_of(r.report);
    else later_results = case_results_of(r.report);
    const std::vector<CaseResult>& results = first ? first_results : later_results;
    // Why a case's or a size's measurement cannot support a verdict (core/noise_guard.hpp), or null; the page marks it.
    const NoiseContext noise(r.report);
    const std::map<std::string, MeasurementDoubt> doubts = doubt_per_size(r.report, results);
    const auto noise_field = [&](const MeasurementDoubt& d) { return d.any() ? json(strings.index(d.text())) : json(nullptr); };
    std::map<std::string, std::size_t> counts;
    for (const CaseResult& result : results) {
      const Case& c = result.c;
      const std::size_t row = cases.rows.size();
      ++counts[shown_status(result)];
      cases.rows.push_back({report, strings.index(std::string(name(c.collective))), strings.index(c.backend),
                            strings.index(algorithm_label(c)), strings.index(std::string(name(c.dtype))),
                            strings.index(std::string(name(c.op))), c.np, c.bytes, strings.index(size_text(c.bytes)),
                            c.in_place ? 1 : 0, strings.index(std::string(name(c.mode))),
                            strings.index(shown_status(result)), strings.index(result.reason),
                            result.timing ? json(result.timing->median_s) : json(nullptr),
                            result.timing ? json(result.timing->ci95_low_s) : json(nullptr),
                            result.timing ? json(result.timing->ci95_high_s) : json(nullptr),
                            optional_number(result.busbw_GBps), noise_field(noise.doubt_of(result))});
      if (first && comparable(result)) first_rows[c.case_id] = {row, &result};
      if (!first && comparable(result))
        if (const auto it = first_rows.find(c.case_id); it != first_rows.end()) {
          json fields = json::array({row, it->second.first});
          for (json& f : speedup_fields(speedup_between(*it->second.second, result, false), strings))
            fields.push_back(std::move(f));
          compared.rows.push_back(std::move(fields));
        }
      if (result.measured() && result.phases && result.phases->is_array())
        for (const json& p : *result.phases)
          if (p.is_object() && p.contains("time_s") && p["time_s"].is_number())
            phases.rows.push_back({row, strings.index(p.value("name", "?")), p["time_s"]});
      if (result.measured() && result.compression && result.compression->is_object())
        compression.rows.push_back(
            {row, optional_number(result.compression_metrics().rel_l2_error),
             optional_number(result.compression_metrics().bits_per_element)});
      if (result.measured() && result.overlap)
        overlap.rows.push_back({row, result.overlap->percent, result.overlap->pure_comm_s, result.overlap->overall_s,
                                result.overlap->compute_s});
    }
    for (const BestAtSize& b : best_per_size(results, "")) {
      const Case& c = b.best->c;
      json row = json::array({report, strings.index(std::string(name(c.collective))),
                              strings.index(std::string(name(c.dtype))), strings.index(std::string(name(c.op))),
                              c.in_place ? 1 : 0, strings.index(std::string(name(c.mode))), c.np, c.bytes,
                              strings.index(size_text(c.bytes)), strings.index(algorithm_label(c)),
                              b.best_s,
                              b.reference ? json(strings.index(algorithm_label(b.reference->c))) : json(nullptr),
                              b.reference ? json(b.reference_s) : json(nullptr),
                              ran_by(b.reference, strings),
                              optional_number(b.best->compression_metrics().rel_l2_error)});
      std::optional<MeasuredSpeedup> over_first;
      if (first) first_best[same_size_key(c)] = b.best;
      else if (const auto it = first_best.find(same_size_key(c)); it != first_best.end())
        over_first = speedup_between(*it->second, *b.best, false);
      for (json& f : speedup_fields(over_first, strings)) row.push_back(std::move(f));
      const auto doubt = doubts.find(same_size_key(c));
      row.push_back(noise_field(doubt != doubts.end() ? doubt->second : MeasurementDoubt{}));
      // A winner whose answer is mostly error (core/compression_bound.hpp): the page marks it, never a plain winner.
      row.push_back(beyond_error_bound(b.best->compression_metrics()) ? 1 : 0);
      best.rows.push_back(std::move(row));
    }
    json warnings = json::array();
    if (const std::string text = report_oversubscription_text(r.report); !text.empty()) warnings.push_back(text);
    if (const std::string text = report_placement_mismatch_text(r.report); !text.empty()) warnings.push_back(text);
    std::vector<MeasurementDoubt> per_size;
    for (const auto& [key, doubt] : doubts) per_size.push_back(doubt);
    if (const std::string legend = noise_legend(per_size, doubts.size()); !legend.empty())
      warnings.push_back(legend.substr(0, legend.size() - 1));  // its lines in one warning
    described.push_back({{"label", r.label}, {"path", r.path}, {"cases", results.size()}, {"counts", counts},
                         {"provenance", provenance_rows(r)}, {"warnings", warnings},
                         {"stragglers", html_stragglers(r.report)}});
  }
  return {{"strings", strings.strings()},
          {"tables",
           {{"cases", cases.to_json()},
            {"phases", phases.to_json()},
            {"compression", compression.to_json()},
            {"overlap", overlap.to_json()},
            {"best", best.to_json()},
            {"compared", compared.to_json()}}},
          {"reports", described},
          {"speedup_definition", kSpeedupDefinition},
          {"error_bound", {{"mark", kErrorMark}, {"legend", kErrorLegend}}}};
}

}  // namespace pico
