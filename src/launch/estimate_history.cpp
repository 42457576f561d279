// SPDX-License-Identifier: BSD-3-Clause
#include "launch/estimate_history.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "config/units.hpp"
#include "support/json_file.hpp"

namespace pico {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kRunsRead = 5;
// Reports read at most, newest first, looking for runs of the same experiment.
constexpr std::size_t kReportsScanned = 20;
// Runs whose cases took less than this are all overhead: no ratio to learn from.
constexpr double kMinLoopsS = 1.0;

struct PastRun {
  double loops_ratio = 0;     // sum of the cases' elapsed_s over their time budgets
  double per_launch_s = 0;    // (wall - sum of elapsed_s) / launches
  std::string experiment;     // experiment.name
};

std::optional<PastRun> past_run(const fs::path& report_path) {
  nlohmann::json r;
  try {
    r = read_json_file(report_path, "", kMaxJsonFileBytesWithin2GB);
  } catch (const std::exception&) {
    return std::nullopt;  // another tool's file, a half-written one: not history
  }
  if (!r.is_object() || r.value("schema", "") != "pico-report/1") return std::nullopt;
  const nlohmann::json& cases = r.value("cases", nlohmann::json::array());
  const nlohmann::json& run = r.value("run", nlohmann::json::object());
  const double wall = run.value("wall_s", 0.0);
  const int launches = run.value("launches", 0);
  const double budget = r["experiment"].value("parsed", nlohmann::json::object())
                            .value("timing", nlohmann::json::object())
                            .value("time_budget_s", 0.0);
  if (!cases.is_array() || cases.empty() || wall <= 0 || launches <= 0 || budget <= 0 || run.value("interrupted", false))
    return std::nullopt;
  double elapsed = 0;
  std::size_t measured = 0;
  for (const auto& c : cases) {
    if (!c.is_object() || !c.contains("elapsed_s") || !c["elapsed_s"].is_number()) continue;
    // Skipped at plan time: no budget was spent (an algorithm sweep skips a tenth of its cases), and the plan's
    // loops count runnable cases only.
    if (c.value("status", "") == "skipped") continue;
    elapsed += c["elapsed_s"].get<double>();
    ++measured;
  }
  const double loops = static_cast<double>(measured) * budget;
  if (measured == 0 || loops < kMinLoopsS || elapsed > wall) return std::nullopt;
  const nlohmann::json& experiment = r.value("experiment", nlohmann::json::object());
  std::string name = experiment.is_object() && experiment.contains("name") && experiment["name"].is_string()
                         ? experiment["name"].get<std::string>()
                         : "";
  return PastRun{elapsed / loops, (wall - elapsed) / launches, std::move(name)};
}

}  // namespace

std::optional<HistoryEstimate> estimate_from_history(const Plan& plan, const std::string& results_base,
                                                     const std::string& platform, const std::string& experiment) {
  std::error_code ec;
  const fs::path root = fs::path(results_base) / platform;
  if (!fs::is_directory(root, ec)) return std::nullopt;
  std::vector<std::pair<fs::file_time_type, fs::path>> reports;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const fs::path report = entry.path() / "report.json";
    if (!entry.is_directory(ec) || !fs::is_regular_file(report, ec)) continue;
    reports.emplace_back(fs::last_write_time(report, ec), report);
  }
  std::sort(reports.begin(), reports.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  // The newest runs of this experiment where some are among the newest reports, else the newest runs.
  std::vector<PastRun> same, any;
  for (std::size_t scanned = 0; scanned < reports.size() && scanned < kReportsScanned; ++scanned) {
    if (same.size() == kRunsRead || (experiment.empty() && any.size() == kRunsRead)) break;
    auto past = past_run(reports[scanned].second);
    if (!past) continue;
    if (!experiment.empty() && past->experiment == experiment) same.push_back(*past);
    if (any.size() < kRunsRead) any.push_back(std::move(*past));
  }
  const double loops = timed_loops_s(plan);
  const auto launches = static_cast<double>(plan.groups.size());
  HistoryEstimate e;
  e.same_experiment = !same.empty();
  for (const PastRun& past : same.empty() ? any : same) {
    const double t = past.loops_ratio * loops + past.per_launch_s * launches;
    if (e.runs == 0) {
      e.low_s = e.high_s = t;
      e.loops_ratio_low = e.loops_ratio_high = past.loops_ratio;
      e.launch_s_low = e.launch_s_high = past.per_launch_s;
    } else {
      e.low_s = std::min(e.low_s, t), e.high_s = std::max(e.high_s, t);
      e.loops_ratio_low = std::min(e.loops_ratio_low, past.loops_ratio);
      e.loops_ratio_high = std::max(e.loops_ratio_high, past.loops_ratio);
      e.launch_s_low = std::min(e.launch_s_low, past.per_launch_s);
      e.launch_s_high = std::max(e.launch_s_high, past.per_launch_s);
    }
    ++e.runs;
  }
  if (e.runs == 0) return std::nullopt;
  return e;
}

std::string history_estimate_text(const Plan& plan, const std::string& results_base, const std::string& platform,
                                  const std::string& experiment) {
  const auto e = estimate_from_history(plan, results_base, platform, experiment);
  if (!e) return "";
  const auto range = [](double a, double b, const std::string& text_a, const std::string& text_b) {
    return a == b ? text_a : text_a + "-" + text_b;
  };
  return fmt::format(
      "expect {} of wall time, from {} earlier run(s){} on '{}' under {} (their cases took {}x their time budgets, "
      "and {} s per launch went to starting, validating and writing)",
      range(e->low_s, e->high_s, format_duration(e->low_s), format_duration(e->high_s)), e->runs,
      experiment.empty()   ? ""
      : e->same_experiment ? fmt::format(" of '{}'", experiment)
                           : " of other experiments",
      platform, results_base,
      range(e->loops_ratio_low, e->loops_ratio_high, fmt::format("{:.1f}", e->loops_ratio_low),
            fmt::format("{:.1f}", e->loops_ratio_high)),
      range(e->launch_s_low, e->launch_s_high, fmt::format("{:.1f}", e->launch_s_low),
            fmt::format("{:.1f}", e->launch_s_high)));
}

}  // namespace pico
