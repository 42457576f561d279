// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_texts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pico {

using nlohmann::json;

std::string application_command_text(const json& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a.get<std::string>();
  return out;
}

std::string application_metric_text(const json& report) {
  const json& f = report["figure_of_merit"];
  if (f.is_null()) return "time = each launch's wall time in seconds (mpirun's start and end included)";
  return fmt::format("time = the application's figure of merit '{}'{}, {} is better", f["pattern"].get<std::string>(),
                     f["unit"].get<std::string>().empty() ? "" : " in " + f["unit"].get<std::string>(),
                     f["better"].get<std::string>());
}

namespace {

// "pooled from 3 runs of the experiment, their rounds one after the other: A, B, C"; "" for one run.
std::string pooled_text(const json& report) {
  if (!report.contains("pooled_from")) return "";
  std::vector<std::string> dirs;
  for (const auto& d : report["pooled_from"]) dirs.push_back(d.get<std::string>());
  return fmt::format("pooled from {} runs of the experiment, their rounds one after the other: {}\n", dirs.size(),
                     fmt::join(dirs, ", "));
}

}  // namespace

std::string application_heading(const json& report) {
  return fmt::format("application '{}': {}\non {} ({} {}), {} round(s) x {} repetition(s); {} of {} launches run, {} "
                     "failed\n{}\n",
                     report["name"].get<std::string>(), application_command_text(report["command"]),
                     report["platform"].get<std::string>(), report["mpi"]["library"].get<std::string>(),
                     report["mpi"]["version"].get<std::string>(), report["rounds"].get<int>(),
                     report["repetitions"].get<int>(), report["launches_run"].get<int>(),
                     report["launches_planned"].get<int>(), report["failed_launches"].get<int>(),
                     application_metric_text(report)) +
         pooled_text(report);
}

std::string share_text(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

MeasuredSpeedup variant_speedup(const json& variant) {
  const json s = variant.value("speedup", json::object());
  MeasuredSpeedup out;
  out.estimate = s.value("estimate", 0.0);
  out.low = s.value("low", 0.0);
  out.high = s.value("high", 0.0);
  out.method = s.value("method", "");
  return out;
}

const std::vector<TextColumn>& variant_columns() {
  static const std::vector<TextColumn> columns{{"variant", false},       {"ok", true},
                                               {"failed", true},         {"median time", true},
                                               {"speedup", true},        {"95% interval", false},
                                               {"verdict", false},       {"in collectives", true},
                                               {"in calls changed", true}};
  return columns;
}

std::vector<std::string> variant_cells(const json& v) {
  const bool base = v["verdict"] == "baseline";
  const MeasuredSpeedup s = variant_speedup(v);
  return {v["variant"].get<std::string>(),
          std::to_string(v["launches_ok"].get<int>()),
          std::to_string(v["launches_failed"].get<int>()),
          number_text(v["median"].get<double>()),
          base ? "-" : speedup_estimate_text(s),
          !base && s.has_interval() ? speedup_interval_text(s) : "-",
          v["verdict"].get<std::string>(),
          share_text(v["collective_share"].get<double>()),
          base ? "-" : share_text(v["changed_share"].get<double>())};
}

std::vector<TextColumn> call_columns(bool profile) {
  std::vector<TextColumn> columns{{"collective", false}, {"comm", true}, {"bytes", true},     {"calls/launch", true},
                                  {"default ran", false}, {"ran", false}, {"s/launch", true}, {"vs default", true}};
  if (profile) columns.insert(columns.end(), {{"profile chose", false}, {"taken", false}, {"sweep said", true}});
  return columns;
}

std::vector<std::string> call_cells(const json& c, bool profile) {
  const auto ratio = [&](const char* key) {
    return c.contains(key) ? fmt::format("{:.2f}x", c[key].get<double>()) : std::string("-");
  };
  std::string ran;
  for (const auto& [a, n] : c["ran"].items()) ran += (ran.empty() ? "" : ", ") + a;
  std::vector<std::string> row{c["collective"].get<std::string>(),
                               std::to_string(c["comm_size"].get<int>()),
                               size_text(c["bytes"].get<std::uint64_t>()),
                               number_text(c["calls"].get<double>()),
                               c.value("default_ran", "-"),
                               ran,
                               number_text(c["seconds"].get<double>()),
                               ratio("call_speedup")};
  if (profile) {
    row.push_back(c.value("profile_choice", "-"));
    row.push_back(c.contains("taken") ? (c["taken"].get<bool>() ? "yes" : "NO") : "-");
    row.push_back(ratio("profile_speedup"));
  }
  return row;
}

std::vector<json> calls_by_time(const json& variant) {
  std::vector<json> sites(variant["calls"].begin(), variant["calls"].end());
  std::stable_sort(sites.begin(), sites.end(), [](const json& a, const json& b) {
    return a["seconds"].get<double>() > b["seconds"].get<double>();
  });
  return sites;
}

std::vector<std::string> variant_notes(const json& v) {
  std::vector<std::string> out;
  if (v.contains("verdict_reason"))
    out.push_back(fmt::format("{}: {}", v["verdict"].get<std::string>(), v["verdict_reason"].get<std::string>()));
  if (v.contains("profile_calls")) {
    const json& p = v["profile_calls"];
    out.push_back(fmt::format("the profile chose an algorithm for {} call(s) per launch, {}; {} left at the default",
                              number_text(p["chosen"].get<double>()),
                              p["taken"].is_null() ? "whether taken unknown (no interposer)"
                                                   : "taken at " + number_text(p["taken"].get<double>()),
                              number_text(p["left_at_default"].get<double>())));
  }
  if (v.contains("selected_by")) {
    std::string vars;
    for (const auto& [k, value] : v["selected_by"].items())
      vars += (vars.empty() ? "" : " ") + k + "=" + value.get<std::string>();
    out.push_back(fmt::format("what ran inside the calls is what these variables select (the library has no "
                              "interposer to show it): {}",
                              vars));
  }
  if (v.contains("predicted")) {
    MeasuredSpeedup predicted;
    predicted.estimate = v["predicted"]["speedup"].get<double>();
    out.push_back(fmt::format("predicted {} from the sweep's speedups at the calls it changes ({} s saved of the "
                              "default's run)",
                              speedup_estimate_text(predicted), number_text(v["predicted"]["saved_s"].get<double>())));
  }
  if (v.contains("realized_saving")) {
    const json& r = v["realized_saving"];
    const double outside = r["outside_collectives_s"].get<double>(), run = r["run_s"].get<double>();
    out.push_back(fmt::format("realized {} s saved per launch (median), {} s of it in collectives and {} s outside "
                              "them{}",
                              number_text(run), number_text(r["in_collectives_s"].get<double>()),
                              number_text(outside),
                              std::abs(outside) > 0.5 * std::abs(run) && std::abs(run) > 0
                                  ? ": time outside the collectives changed with the variant, which no prediction "
                                    "from calls sees (ranks sharing cores, where a rank waiting in a collective takes "
                                    "CPU from ranks computing, or the application's own imbalance)"
                                  : ""));
  }
  return out;
}

std::string failure_text(const json& f) {
  return fmt::format("launch {} (round {}) failed: {}", f["launch"].get<int>(), f["round"].get<int>(),
                     f["reason"].get<std::string>());
}

}  // namespace pico
