// SPDX-License-Identifier: BSD-3-Clause
#include "core/oversubscription.hpp"

#include <climits>

#include <fmt/format.h>

namespace pico {
namespace {

// A host's name for a one-line message: control characters (an edited report's) as '?'.
std::string printable(const nlohmann::json& name) {
  std::string out = name.is_string() ? name.get<std::string>() : name.dump();
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  return out;
}

// A host record of a launch-K.info.json: {"name", "ranks": [...], "topology": {"cores", ...}}.
void check_hosts(const nlohmann::json& hosts, int launch, std::vector<Oversubscription>& out) {
  if (!hosts.is_array()) return;
  for (const nlohmann::json& h : hosts) {
    if (!h.is_object() || !h.contains("ranks") || !h["ranks"].is_array()) continue;
    const auto topology = h.find("topology");
    if (topology == h.end() || !topology->is_object()) continue;
    const auto cores = topology->find("cores");
    if (cores == topology->end() || !cores->is_number_integer() || cores->get<long long>() <= 0) continue;
    const auto ranks = static_cast<long long>(h["ranks"].size());
    if (ranks > cores->get<long long>())
      out.push_back({launch, printable(h.value("name", nlohmann::json("?"))), static_cast<int>(ranks),
                     static_cast<int>(cores->get<long long>())});
  }
}

}  // namespace

std::vector<Oversubscription> oversubscribed(const nlohmann::json& provenance) {
  std::vector<Oversubscription> out;
  if (!provenance.is_object()) return out;
  const auto launches = provenance.find("launches");
  if (launches != provenance.end() && launches->is_array() && !launches->empty()) {
    for (const nlohmann::json& l : *launches)
      if (l.is_object() && l.contains("hosts")) {
        const auto launch = l.find("launch");
        const bool known = launch != l.end() && launch->is_number_integer() && launch->get<long long>() >= 0 &&
                           launch->get<long long>() <= INT_MAX;
        check_hosts(l["hosts"], known ? static_cast<int>(launch->get<long long>()) : -1, out);
      }
  } else if (provenance.contains("hosts")) {
    check_hosts(provenance["hosts"], -1, out);
  }
  return out;
}

nlohmann::json to_json(const std::vector<Oversubscription>& found) {
  nlohmann::json out = nlohmann::json::array();
  for (const Oversubscription& o : found)
    out.push_back({{"launch", o.launch}, {"host", o.host}, {"ranks", o.ranks}, {"cores", o.cores}});
  return out;
}

std::string oversubscription_text(const std::vector<Oversubscription>& found) {
  if (found.empty()) return "";
  std::string where;
  constexpr std::size_t kShown = 3;
  for (std::size_t i = 0; i < found.size() && i < kShown; ++i) {
    const Oversubscription& o = found[i];
    where += fmt::format("{}{}{} ranks on host {} with {} cores", i ? "; " : "",
                         o.launch >= 0 ? fmt::format("launch {}: ", o.launch) : "", o.ranks, o.host, o.cores);
  }
  if (found.size() > kShown) where += fmt::format("; and {} more", found.size() - kShown);
  return fmt::format("oversubscribed ({}): ranks wait for cores, so times and their ratios measure descheduling; "
                     "run at most one rank per core (fewer --np, or more nodes)",
                     where);
}

std::string report_oversubscription_text(const nlohmann::json& report) {
  if (!report.is_object()) return "";
  const auto provenance = report.find("provenance");
  return provenance == report.end() ? "" : oversubscription_text(oversubscribed(*provenance));
}

}  // namespace pico
