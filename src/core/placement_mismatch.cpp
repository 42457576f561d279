// SPDX-License-Identifier: BSD-3-Clause
#include "core/placement_mismatch.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "core/rank_placement.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

// The ranks on each host a launch record lists ({"hosts": [{"name", "ranks": [...]}]}); empty where it lists none.
std::vector<std::size_t> ranks_per_host_of(const nlohmann::json& launch) {
  std::vector<std::size_t> out;
  const auto hosts = launch.find("hosts");
  if (hosts == launch.end() || !hosts->is_array()) return out;
  for (const nlohmann::json& h : *hosts) {
    if (!h.is_object()) continue;
    const auto ranks = h.find("ranks");
    if (ranks != h.end() && ranks->is_array() && !ranks->empty()) out.push_back(ranks->size());
  }
  return out;
}

int launch_of(const nlohmann::json& l) {
  const auto id = l.find("launch");
  return id != l.end() && id->is_number_integer() && id->get<long long>() >= 0 && id->get<long long>() <= INT_MAX
             ? static_cast<int>(id->get<long long>())
             : -1;
}

std::vector<std::size_t> most_first(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end(), std::greater<>());
  return v;
}

}  // namespace

bool same_placement(std::vector<std::size_t> planned, std::vector<std::size_t> ran) {
  return most_first(std::move(planned)) == most_first(std::move(ran));
}

std::vector<PlacementMismatch> placement_mismatches(const nlohmann::json& provenance) {
  std::vector<PlacementMismatch> out;
  if (!provenance.is_object()) return out;
  const auto planned_json = provenance.find("placement_planned");
  const auto launches = provenance.find("launches");
  if (planned_json == provenance.end() || launches == provenance.end() || !launches->is_array()) return out;
  const std::optional<RankPlacement> planned = placement_from_json(*planned_json);
  if (!planned) return out;
  for (const nlohmann::json& l : *launches) {
    if (!l.is_object()) continue;
    const std::vector<std::size_t> ran = ranks_per_host_of(l);
    std::size_t np = 0;
    for (const std::size_t n : ran) np += n;
    if (np == 0 || np > INT_MAX) continue;
    const std::vector<std::size_t> plan = planned->ranks_per_host(static_cast<int>(np));
    if (!same_placement(plan, ran))
      out.push_back({launch_of(l), static_cast<int>(np), plan, most_first(ran), planned->source});
  }
  return out;
}

nlohmann::json to_json(const std::vector<PlacementMismatch>& found) {
  nlohmann::json out = nlohmann::json::array();
  for (const PlacementMismatch& m : found)
    out.push_back({{"launch", m.launch},
                   {"np", m.np},
                   {"planned_ranks_per_host", m.planned},
                   {"ran_ranks_per_host", m.ran},
                   {"planned", placement_text(m.planned)},
                   {"ran", placement_text(m.ran)},
                   {"source", m.source}});
  return out;
}

std::string placement_mismatch_text(const std::vector<PlacementMismatch>& found) {
  if (found.empty()) return "";
  std::string where;
  std::set<int> said;  // one clause per process count: its launches ran alike, as a rule
  for (const PlacementMismatch& m : found) {
    if (!said.insert(m.np).second) continue;
    where += fmt::format("{}np {}: planned {}, ran on {}", where.empty() ? "" : "; ", m.np, placement_text(m.planned),
                         placement_text(m.ran));
  }
  return fmt::format("the platform's placement is not where the ranks ran ({}; the plan's placement: {}): hierarchical "
                     "algorithms were kept or skipped for the placement planned, and pico tune keys its rules on the "
                     "hosts the ranks ran on; make the platform's placement (or its launcher's hosts) say what runs",
                     where, printable(found.front().source));
}

std::string report_placement_mismatch_text(const nlohmann::json& report) {
  if (!report.is_object()) return "";
  const auto provenance = report.find("provenance");
  return provenance == report.end() ? "" : placement_mismatch_text(placement_mismatches(*provenance));
}

}  // namespace pico
