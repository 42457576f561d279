// SPDX-License-Identifier: BSD-3-Clause
#include "analysis/report_facts.hpp"

#include <algorithm>

namespace pico {
namespace {

const nlohmann::json& member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}

std::string text(const nlohmann::json& j, const char* key, const std::string& otherwise = "") {
  const nlohmann::json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : otherwise;
}

}  // namespace

int ReportFacts::hosts_of_launch(int launch) const {
  if (const auto it = launch_hosts.find(launch); it != launch_hosts.end())
    return std::max(1, static_cast<int>(it->second));
  return std::max(1, static_cast<int>(hosts.size()));
}

ReportFacts report_facts(const nlohmann::json& report) {
  ReportFacts f;
  f.platform = text(member(report, "platform"), "name");
  f.results_dir = text(member(report, "run"), "results_dir");
  const nlohmann::json& prov = member(report, "provenance");
  const nlohmann::json& mpi = member(prov, "mpi");
  f.mpi_library = mpi.is_object() ? text(mpi, "library", "unknown") : "";
  f.mpi_version = text(mpi, "version");
  f.nccl_build = text(member(prov, "gpu"), "nccl_build");
  if (const nlohmann::json& hosts = member(prov, "hosts"); hosts.is_array())
    for (const nlohmann::json& h : hosts) {
      const nlohmann::json& ranks = member(h, "ranks");
      f.hosts.push_back({text(h, "name"), ranks.is_array() ? ranks.size() : 0});
    }
  if (const nlohmann::json& launches = member(prov, "launches"); launches.is_array())
    for (const nlohmann::json& l : launches) {
      const nlohmann::json& id = member(l, "launch");
      const nlohmann::json& hosts = member(l, "hosts");
      if (id.is_number_integer() && hosts.is_array()) f.launch_hosts[id.get<int>()] = hosts.size();
    }
  if (const nlohmann::json& profile = member(prov, "profile"); profile.is_object()) f.profile = profile;
  return f;
}

}  // namespace pico
