#include "reports/compare.hpp"

#include <map>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/input_error.hpp"
#include "reports/render.hpp"
#include "reports/text_table.hpp"

namespace pico {
namespace {

using nlohmann::json;

// Cases of one size: same collective, datatype, op, count, ranks, mode and in-place side.
std::string size_key(const Case& c) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}", name(c.collective), name(c.dtype), name(c.op), c.count, c.np,
                     name(c.mode), c.in_place);
}

bool selected(const Case& c, const std::string& selector) { return selector == c.backend + ":" + c.algorithm; }

// The baseline among cases sharing a size: the selector's, else the only one.
const CaseResult* choose(const std::vector<const CaseResult*>& candidates, const std::string& selector) {
  const std::vector<std::string> selectors =
      selector.empty() ? std::vector<std::string>{"compressed:dense", "nccl_compressed:dense", "mpi:default"}
                       : std::vector<std::string>{selector};
  for (const auto& s : selectors)
    for (const CaseResult* r : candidates)
      if (selected(r->c, s)) return r;
  return candidates.size() == 1 ? candidates.front() : nullptr;
}

json compare_pair(const CaseResult& base, const CaseResult& cand) {
  const TimingStats& bt = *base.timing;
  const TimingStats& kt = *cand.timing;
  const double b = bt.median_s, k = kt.median_s;
  json row = {
      {"collective", name(cand.c.collective)},
      {"np", cand.c.np},
      {"bytes", cand.c.bytes},
      {"baseline", algorithm_label(base.c)},
      {"candidate", algorithm_label(cand.c)},
      {"baseline_median_s", b},
      {"candidate_median_s", k},
  };
  if (k > 0 && b > 0) {
    // Both medians' 95% intervals at their unfavourable ends: a conservative interval of the ratio.
    const double low = bt.ci95_low_s / kt.ci95_high_s;
    const double high = kt.ci95_low_s > 0 ? bt.ci95_high_s / kt.ci95_low_s : b / k;
    row["speedup"] = b / k;
    row["speedup_ci95"] = {low, high};
    row["verdict"] = low > 1 ? "faster" : high < 1 ? "slower" : "indistinguishable";
  } else {
    row["speedup"] = nullptr;
    row["speedup_ci95"] = nullptr;
    row["verdict"] = "unmeasured";
  }
  // In the order the algorithm runs its phases.
  json breakdown = json::array();
  if (cand.phases && cand.phases->is_array())
    for (const json& p : *cand.phases) breakdown.push_back({{"name", p.value("name", "?")}, {"time_s", p.value("time_s", 0.0)}});
  row["breakdown"] = breakdown;
  row["compression"] = cand.compression ? *cand.compression : json(nullptr);
  return row;
}

}  // namespace

json compare_reports(const json& baseline, const json* candidate, const CompareOptions& options) {
  const std::vector<CaseResult> baseline_cases = case_results_of(baseline);
  std::map<std::string, std::vector<const CaseResult*>> baseline_by_size;
  std::map<std::string, const CaseResult*> baseline_by_id;
  for (const CaseResult& r : baseline_cases) {
    if (!r.measured()) continue;
    baseline_by_size[size_key(r.c)].push_back(&r);
    baseline_by_id[r.c.case_id] = &r;
  }
  json rows = json::array();
  if (candidate != nullptr) {
    for (const CaseResult& r : case_results_of(*candidate)) {
      if (!r.measured()) continue;
      const CaseResult* base = nullptr;
      if (auto it = baseline_by_id.find(r.c.case_id); it != baseline_by_id.end()) base = it->second;
      if (base == nullptr)
        if (auto it = baseline_by_size.find(size_key(r.c)); it != baseline_by_size.end())
          base = choose(it->second, options.baseline);
      if (base != nullptr) rows.push_back(compare_pair(*base, r));
    }
  } else {
    for (const auto& [key, group] : baseline_by_size) {
      const CaseResult* base = choose(group, options.baseline);
      if (base == nullptr || group.size() < 2) continue;
      for (const CaseResult* r : group)
        if (r != base) rows.push_back(compare_pair(*base, *r));
    }
  }
  if (rows.empty())
    throw InputError("pico compare",
                     candidate != nullptr ? "no measured case of the candidate matches one of the baseline (same "
                                            "collective, dtype, op, count, ranks and mode)"
                                          : "no size has both a baseline case and another measured case",
                     candidate != nullptr ? "compare reports of the same experiment, e.g. one per library or machine"
                                          : "name the baseline with --baseline-case BACKEND:ALGORITHM");
  return rows;
}

namespace {

std::string number(const json& v, const char* format) {
  if (!v.is_number()) return "-";
  return fmt::format(fmt::runtime(format), v.get<double>());
}

std::string us(const json& seconds) { return seconds.is_number() ? fmt::format("{:.1f}", seconds.get<double>() * 1e6) : "-"; }

std::string breakdown_text(const json& b) {
  std::string out;
  for (const json& phase : b) out += (out.empty() ? "" : " ") + phase.value("name", "?") + "=" + us(phase["time_s"]);
  return out.empty() ? "-" : out;
}

const json& metric(const json& row, const char* key) {
  static const json none;
  const json& c = row["compression"];
  return c.is_object() && c.contains(key) ? c[key] : none;
}

constexpr TextColumn kColumns[] = {
    {"collective", false}, {"np", true},          {"size", true},       {"baseline", false},
    {"candidate", false},  {"base(us)", true},    {"cand(us)", true},   {"speedup", true},
    {"95% CI", false},     {"verdict", false},    {"bits/elem", true},  {"rel_l2", true},
    {"bias", true},        {"identical", false},  {"breakdown(us)", false},
};

std::vector<std::string> cells(const json& row) {
  const json& ci = row["speedup_ci95"];
  const json& identical = metric(row, "identical_across_ranks");
  return {row.value("collective", ""),
          fmt::format("{}", row.value("np", 0)),
          fmt::format("{}", row.value("bytes", 0ULL)),
          row.value("baseline", ""),
          row.value("candidate", ""),
          us(row["baseline_median_s"]),
          us(row["candidate_median_s"]),
          number(row["speedup"], "{:.2f}x"),
          ci.is_array() ? fmt::format("[{:.2f}, {:.2f}]", ci[0].get<double>(), ci[1].get<double>()) : "-",
          row.value("verdict", ""),
          number(metric(row, "bits_per_element"), "{:.2f}"),
          number(metric(row, "rel_l2_error"), "{:.2e}"),
          number(metric(row, "bias_rel_l2"), "{:.2e}"),
          identical.is_boolean() ? (identical.get<bool>() ? "yes" : "NO") : "-",
          breakdown_text(row["breakdown"])};
}

}  // namespace

std::string render_compare_table(const json& rows) {
  std::vector<std::vector<std::string>> table;
  for (const json& row : rows) table.push_back(cells(row));
  return aligned_table(kColumns, table);
}

std::string render_compare_csv(const json& rows) {
  std::vector<std::string> header;
  for (const auto& c : kColumns) header.emplace_back(c.header);
  std::string out = csv_record(header);
  for (const json& row : rows) out += csv_record(cells(row));
  return out;
}

}  // namespace pico
