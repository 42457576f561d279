// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_html.hpp"

#include <fmt/format.h>

#include "reports/application_texts.hpp"

namespace pico {
namespace {

using nlohmann::json;

json headers(const std::vector<TextColumn>& columns) {
  json out = json::array();
  for (const TextColumn& c : columns) out.push_back({{"name", std::string(c.header)}, {"number", c.right_aligned}});
  return out;
}

// What a variant changes against the default, as its experiment gave it.
std::string variant_text(const json& v) {
  std::string out;
  const auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (v["profile"].is_object()) add(fmt::format("profile {}", v["profile"].value("path", "")));
  const json algorithms = v.value("algorithms", json::object()), env = v.value("env_given", json::object());
  for (const auto& [c, a] : algorithms.items()) add(fmt::format("{}: {}", c, a.get<std::string>()));
  for (const auto& [k, val] : env.items()) add(fmt::format("{}={}", k, val.get<std::string>()));
  return out.empty() ? "the library default" : out;
}

json optional_number(const json& v, const char* key) { return v.contains(key) ? v[key] : json(nullptr); }

json variant_data(const json& v) {
  const bool profile = v.contains("profile_calls");
  const MeasuredSpeedup s = variant_speedup(v);
  json calls = json::array();
  for (const json& c : calls_by_time(v)) calls.push_back(call_cells(c, profile));
  json failures = json::array();
  for (const json& f : v["failures"])
    failures.push_back({{"text", failure_text(f)}, {"output_tail", f.value("output_tail", "")}});
  json realized = nullptr;
  if (v.contains("realized_saving"))
    realized = {{"run_s", v["realized_saving"]["run_s"]},
                {"in_collectives_s", v["realized_saving"]["in_collectives_s"]},
                {"outside_collectives_s", v["realized_saving"]["outside_collectives_s"]}};
  return {{"variant", v["variant"]},
          {"verdict", v["verdict"]},
          {"cells", variant_cells(v)},
          {"speedup", s.estimate > 0 ? json(s.estimate) : json(nullptr)},
          {"speedup_low", s.has_interval() ? json(s.low) : json(nullptr)},
          {"speedup_high", s.has_interval() ? json(s.high) : json(nullptr)},
          {"speedup_text", speedup_estimate_text(s)},
          {"interval_text", speedup_interval_text(s)},
          {"predicted", v.contains("predicted") ? v["predicted"]["speedup"] : json(nullptr)},
          {"median", v["median"]},
          {"value_by_round", v["value_by_round"]},
          {"collective_share", v["collective_share"]},
          {"changed_share", v["verdict"] == "baseline" ? json(nullptr) : optional_number(v, "changed_share")},
          {"realized_saving", realized},
          {"notes", variant_notes(v)},
          {"failures", failures},
          {"profile", profile},
          {"calls", calls}};
}

}  // namespace

bool is_application_report(const json& report) {
  return report.is_object() && report.value("schema", "") == "pico-application-report/1";
}

std::string application_label(const json& report, const std::string& user_label) {
  if (!user_label.empty()) return "1: " + user_label;
  std::string label = fmt::format("1: {} on {}, {} {}", report["name"].get<std::string>(),
                                  report["platform"].get<std::string>(), report["mpi"]["library"].get<std::string>(),
                                  report["mpi"]["version"].get<std::string>());
  // "2026-11-28T20:38:00Z" as "2026-11-28 20:38".
  const std::string started = report.value("started_utc", "");
  if (started.size() >= 16 && started[10] == 'T') label += fmt::format(", {} {}", started.substr(0, 10), started.substr(11, 5));
  return label;
}

json application_page_data(const LabelledReport& r) {
  const json& report = r.report;
  json variants = json::array();
  for (const json& v : report["variants"]) variants.push_back({v["name"], variant_text(v)});
  json processes = json::array();
  for (const json& per_np : report["processes"]) {
    json rows = json::array();
    for (const json& v : per_np["variants"]) rows.push_back(variant_data(v));
    processes.push_back({{"np", per_np["np"]}, {"variants", rows}});
  }
  const json provenance = json::array(
      {json::array({"results", r.path}),
       json::array({"command", application_command_text(report["command"])}),
       json::array({"platform", report["platform"]}),
       json::array({"MPI library", fmt::format("{} {}", report["mpi"]["library"].get<std::string>(),
                                                report["mpi"]["version"].get<std::string>())}),
       json::array({"started", report.value("started_utc", "")}),
       json::array({"launches", fmt::format("{} of {} run, {} failed", report["launches_run"].get<int>(),
                                            report["launches_planned"].get<int>(),
                                            report["failed_launches"].get<int>())})});
  return {{"kind", "application"},
          {"label", r.label},
          {"path", r.path},
          {"heading", application_heading(report)},
          {"metric", application_metric_text(report)},
          {"definition", std::string(kApplicationDefinition)},
          {"variant_columns", headers(variant_columns())},
          {"call_columns", headers(call_columns(false))},
          {"profile_call_columns", headers(call_columns(true))},
          {"variants", variants},
          {"processes", processes},
          {"provenance", provenance}};
}

}  // namespace pico
