// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_table.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "reports/text_table.hpp"

namespace pico {
namespace {

using nlohmann::json;

// What the figures are, in lines of at most 100 columns.
constexpr const char* kDefinition =
    "speedup = the default's time / the variant's, paired round by round (the robust mean of the\n"
    "  round ratios); 95% interval = percentile bootstrap over rounds; verdict: faster / slower where\n"
    "  the interval lies above / below 1, else undecided; shares: of the run, MPI_Init to MPI_Finalize\n";

// Call sites a variant's table shows, the longest first.
constexpr std::size_t kCallRows = 12;

std::string command_text(const json& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a.get<std::string>();
  return out;
}

std::string metric_text(const json& report) {
  const json& f = report["figure_of_merit"];
  if (f.is_null()) return "time = each launch's wall time in seconds (mpirun's start and end included)";
  return fmt::format("time = the application's figure of merit '{}'{}, {} is better", f["pattern"].get<std::string>(),
                     f["unit"].get<std::string>().empty() ? "" : " in " + f["unit"].get<std::string>(),
                     f["better"].get<std::string>());
}

std::string number(double v) { return fmt::format("{:.4g}", v); }
std::string share(const json& v) { return fmt::format("{:.1f}%", 100 * v.get<double>()); }

// The calls of one variant beside the default's, where either names an algorithm.
std::string calls_table(const json& variant) {
  std::vector<TextColumn> columns{{"collective", false}, {"comm", true},      {"bytes", true}, {"calls/launch", true},
                                  {"default ran", false}, {"ran", false},       {"s/launch", true}};
  const bool profile = variant.contains("profile_calls");
  columns.push_back({"vs default", true});
  if (profile) columns.insert(columns.end(), {{"profile chose", false}, {"taken", false}, {"sweep said", true}});
  // The call sites by time, the longest first: an application makes hundreds.
  std::vector<json> sites(variant["calls"].begin(), variant["calls"].end());
  std::stable_sort(sites.begin(), sites.end(), [](const json& a, const json& b) {
    return a["seconds"].get<double>() > b["seconds"].get<double>();
  });
  double total_s = 0, shown_s = 0;
  for (const json& c : sites) total_s += c["seconds"].get<double>();
  std::vector<std::vector<std::string>> rows;
  for (const json& c : sites) {
    if (rows.size() == kCallRows) break;
    shown_s += c["seconds"].get<double>();
    std::vector<std::string> row{c["collective"].get<std::string>(), std::to_string(c["comm_size"].get<int>()),
                                 size_text(c["bytes"].get<std::uint64_t>()), number(c["calls"].get<double>()),
                                 c.value("default_ran", "-"), "",  number(c["seconds"].get<double>())};
    std::string ran;
    for (const auto& [a, n] : c["ran"].items()) ran += (ran.empty() ? "" : ", ") + a;
    row[5] = ran;
    row.push_back(c.contains("call_speedup") ? fmt::format("{:.2f}x", c["call_speedup"].get<double>()) : "-");
    if (profile) {
      row.push_back(c.value("profile_choice", "-"));
      row.push_back(c.contains("taken") ? (c["taken"].get<bool>() ? "yes" : "NO") : "-");
      row.push_back(c.contains("profile_speedup") ? fmt::format("{:.2f}x", c["profile_speedup"].get<double>()) : "-");
    }
    rows.push_back(std::move(row));
  }
  std::string out = aligned_table(columns, rows);
  if (sites.size() > rows.size())
    out += fmt::format("... and {} more call site(s), {:.1f}% of the time in collectives (--format json has all)\n",
                       sites.size() - rows.size(), total_s > 0 ? 100 * (total_s - shown_s) / total_s : 0.0);
  return out;
}

}  // namespace

std::string application_table(const json& report) {
  std::string out = fmt::format("application '{}': {}\non {} ({} {}), {} round(s) x {} repetition(s); {} of {} "
                                "launches run, {} failed\n{}\n{}",
                                report["name"].get<std::string>(), command_text(report["command"]),
                                report["platform"].get<std::string>(), report["mpi"]["library"].get<std::string>(),
                                report["mpi"]["version"].get<std::string>(), report["rounds"].get<int>(),
                                report["repetitions"].get<int>(), report["launches_run"].get<int>(),
                                report["launches_planned"].get<int>(), report["failed_launches"].get<int>(),
                                metric_text(report), kDefinition);
  const std::vector<TextColumn> columns{{"variant", false},  {"ok", true},           {"failed", true},
                                        {"median time", true}, {"speedup", true},     {"95% interval", false},
                                        {"verdict", false},  {"in collectives", true}, {"in calls changed", true}};
  for (const auto& per_np : report["processes"]) {
    out += fmt::format("\nnp {}\n", per_np["np"].get<int>());
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : per_np["variants"]) {
      const bool base = v["verdict"] == "baseline";
      const json& s = v.value("speedup", json::object());
      const bool interval = !base && s.value("low", 0.0) > 0;
      rows.push_back({v["variant"].get<std::string>(), std::to_string(v["launches_ok"].get<int>()),
                      std::to_string(v["launches_failed"].get<int>()), number(v["median"].get<double>()),
                      base ? "-" : fmt::format("{:.3f}x", s.value("estimate", 0.0)),
                      interval ? fmt::format("[{:.3f}, {:.3f}]", s["low"].get<double>(), s["high"].get<double>()) : "-",
                      v["verdict"].get<std::string>(), share(v["collective_share"]),
                      base ? "-" : share(v["changed_share"])});
    }
    out += aligned_table(columns, rows);
    for (const auto& v : per_np["variants"]) {
      if (v.contains("verdict_reason"))
        out += fmt::format("{}: {}: {}\n", v["variant"].get<std::string>(), v["verdict"].get<std::string>(),
                           v["verdict_reason"].get<std::string>());
      if (v.contains("profile_calls")) {
        const json& p = v["profile_calls"];
        out += fmt::format("{}: the profile chose an algorithm for {} call(s) per launch, taken at {}; {} left at the "
                           "default\n",
                           v["variant"].get<std::string>(), number(p["chosen"].get<double>()),
                           number(p["taken"].get<double>()), number(p["left_at_default"].get<double>()));
      }
      if (v.contains("predicted"))
        out += fmt::format("{}: predicted {:.3f}x from the sweep's speedups at the calls it changes ({:.3g} s saved "
                           "of the default's run)\n",
                           v["variant"].get<std::string>(), v["predicted"]["speedup"].get<double>(),
                           v["predicted"]["saved_s"].get<double>());
      if (v.contains("realized_saving")) {
        const json& r = v["realized_saving"];
        const double outside = r["outside_collectives_s"].get<double>(), run = r["run_s"].get<double>();
        out += fmt::format("{}: realized {:.3g} s saved per launch (median), {:.3g} s of it in collectives and {:.3g} s "
                           "outside them{}\n",
                           v["variant"].get<std::string>(), run, r["in_collectives_s"].get<double>(), outside,
                           std::abs(outside) > 0.5 * std::abs(run) && std::abs(run) > 0
                               ? ": time outside the collectives changed with the variant, which no prediction "
                                 "from calls sees (ranks sharing cores, where a rank waiting in a collective takes "
                                 "CPU from ranks computing, or the application's own imbalance)"
                               : "");
      }
      for (const auto& f : v["failures"])
        out += fmt::format("{}: launch {} (round {}) failed: {}\n", v["variant"].get<std::string>(),
                           f["launch"].get<int>(), f["round"].get<int>(), f["reason"].get<std::string>());
    }
    for (const auto& v : per_np["variants"]) {
      if (v["verdict"] == "baseline" || v["calls"].empty()) continue;
      out += fmt::format("\ncalls of {} (np {}), per launch:\n{}", v["variant"].get<std::string>(),
                         per_np["np"].get<int>(), calls_table(v));
    }
  }
  return out;
}

}  // namespace pico
