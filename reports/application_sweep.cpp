// SPDX-License-Identifier: BSD-3-Clause
#include "reports/application_sweep.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/types.hpp"

namespace pico {

using nlohmann::json;

namespace {

// Sizes within 2x of each other stand for one another: of each such run,
// ascending, the size the application spent the most time at. A profile's
// ranges are cut between measured sizes, so one size per band is what it needs.
std::set<std::uint64_t> representatives(const std::map<std::uint64_t, double>& seconds_by_size) {
  std::set<std::uint64_t> out;
  std::uint64_t band_start = 0, best = 0;
  double best_s = -1;
  for (const auto& [bytes, s] : seconds_by_size) {
    if (best_s >= 0 && bytes > 2 * band_start) {
      out.insert(best);
      best_s = -1;
    }
    if (best_s < 0) band_start = bytes;
    if (s > best_s) best = bytes, best_s = s;
  }
  if (best_s >= 0) out.insert(best);
  return out;
}

}  // namespace

std::string application_sweep_experiment(const json& report, double coverage) {
  // The default's call sites of every process count, the longest first.
  std::vector<json> sites;
  double total_s = 0;
  for (const auto& per_np : report["processes"])
    for (const auto& v : per_np["variants"]) {
      if (v["verdict"] != "baseline") continue;
      for (const auto& c : v["calls"]) {
        // Sizes pico sweeps: its own collectives (not the v-forms).
        // alltoallv's counts differ by rank, so its byte count is no case size.
        const auto coll = parse_collective(c["collective"].get<std::string>());
        if (!coll || *coll == Collective::alltoallv || c["comm_size"].get<int>() < 2) continue;
        sites.push_back(c);
        total_s += c["seconds"].get<double>();
      }
    }
  std::stable_sort(sites.begin(), sites.end(), [](const json& a, const json& b) {
    return a["seconds"].get<double>() > b["seconds"].get<double>();
  });
  std::set<std::string> collectives;
  std::map<std::string, std::map<std::uint64_t, double>> sizes;  // by collective: bytes -> seconds
  std::set<int> processes;
  double covered_s = 0;
  std::size_t used = 0;
  for (const json& c : sites) {
    if (total_s > 0 && covered_s >= coverage * total_s) break;
    covered_s += c["seconds"].get<double>();
    ++used;
    collectives.insert(c["collective"].get<std::string>());
    if (c["collective"] != "barrier")
      sizes[c["collective"].get<std::string>()][std::max<std::uint64_t>(1, c["bytes"].get<std::uint64_t>())] +=
          c["seconds"].get<double>();
    processes.insert(c["comm_size"].get<int>());
  }
  const auto list = [](const auto& items, auto text) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + text(i);
    return "[" + out + "]";
  };
  std::string out = fmt::format(
      "# The sweep application '{}' needs, written by pico report --format sweep: the {} call site(s) holding\n"
      "# {:.0f}% of its default's time in collectives ({:.3g} of {:.3g} s per launch), of {} in all.\n"
      "# int8 elements, so every byte count the application used is a count; reductions run as sums.\n"
      "name: {}-sweep\n",
      report["name"].get<std::string>(), used, total_s > 0 ? 100 * covered_s / total_s : 0.0, covered_s, total_s,
      sites.size(), report["name"].get<std::string>());
  out += "collectives: " + list(collectives, [](const std::string& c) { return c; }) + "\n";
  if (!sizes.empty()) {
    out += "sizes_by_collective:\n";
    for (const auto& [c, bytes] : sizes)
      out += fmt::format("  {}: {}\n", c, list(representatives(bytes), [](std::uint64_t b) { return fmt::format("{}B", b); }));
  }
  out += "dtypes: [int8]\nops: [sum]\n";
  out += "processes: " + list(processes, [](int np) { return std::to_string(np); }) + "\n";
  out += "backends:\n  - library: mpi\n    algorithms: all\n";
  out += "timing: {mode: latency, warmup: 5, min_iterations: 30, max_iterations: 2000, time_budget: 100ms, "
         "target_ci: 2%, case_timeout: 60s, keep_samples: true}\nvalidation: true\n";
  return out;
}

}  // namespace pico
