// SPDX-License-Identifier: BSD-3-Clause
#include "core/report_facts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/rank_placement.hpp"

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

int count(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  return v.is_number_integer() ? v.get<int>() : 0;
}

ReportSource source(const nlohmann::json& j) { return {text(j, "name"), text(j, "path")}; }

std::optional<ReportTopology> topology(const nlohmann::json& t) {
  if (!t.is_object()) return std::nullopt;
  return ReportTopology{count(t, "packages"), count(t, "numa_nodes"), count(t, "cores"), count(t, "pus")};
}

// A value as a line of text: a string as it is, anything else as JSON.
std::string as_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

int ReportFacts::hosts_of_launch(int launch) const {
  if (const auto it = launch_hosts.find(launch); it != launch_hosts.end())
    return std::max(1, static_cast<int>(it->second));
  return std::max(1, static_cast<int>(hosts.size()));
}

ReportFacts report_facts(const nlohmann::json& report) {
  ReportFacts f;
  const nlohmann::json& build = member(report, "pico");
  f.pico_version = text(build, "version");
  f.pico_git_hash = text(build, "git_hash");
  f.pico_build_type = text(build, "build_type");
  f.experiment = source(member(report, "experiment"));
  const ReportSource platform = source(member(report, "platform"));
  f.platform = platform.name;
  f.platform_path = platform.path;
  const nlohmann::json& run = member(report, "run");
  f.results_dir = text(run, "results_dir");
  f.started_utc = text(run, "started_utc");
  f.finished_utc = text(run, "finished_utc");
  if (const nlohmann::json& w = member(run, "wall_s"); w.is_number()) f.wall_s = w.get<double>();
  if (const nlohmann::json& l = member(run, "launches"); l.is_number_integer()) f.launches = l.get<int>();
  f.host_load = host_load_from_json(member(run, "host_load"));
  const nlohmann::json& target = member(member(member(member(report, "experiment"), "parsed"), "timing"), "target_ci");
  if (target.is_number() && target.get<double>() > 0 && target.get<double>() < 1) f.target_ci = target.get<double>();
  const nlohmann::json& prov = member(report, "provenance");
  const nlohmann::json& mpi = member(prov, "mpi");
  f.mpi_library = mpi.is_object() ? text(mpi, "library", "unknown") : "";
  f.mpi_version = text(mpi, "version");
  f.mpi_library_version = text(mpi, "library_version");
  f.mpi_standard = text(mpi, "mpi_standard");
  const nlohmann::json& gpu = member(prov, "gpu");
  f.nccl_build = text(gpu, "nccl_build");
  if (const nlohmann::json& devices = member(gpu, "devices"); !devices.is_null()) f.gpu_devices = devices;
  if (const nlohmann::json& hosts = member(prov, "hosts"); hosts.is_array())
    for (const nlohmann::json& h : hosts) {
      const nlohmann::json& ranks = member(h, "ranks");
      f.hosts.push_back({text(h, "name"), ranks.is_array() ? ranks.size() : 0, topology(member(h, "topology"))});
    }
  if (const nlohmann::json& commands = member(prov, "launch_commands"); commands.is_array())
    for (const nlohmann::json& argv : commands) {
      std::vector<std::string>& line = f.launch_commands.emplace_back();
      if (argv.is_array())
        for (const nlohmann::json& a : argv) line.push_back(as_text(a));
    }
  if (const nlohmann::json& env = member(prov, "env"); env.is_object())
    for (const auto& [k, v] : env.items()) f.env[k] = as_text(v);
  f.user = text(prov, "user");
  f.hostname = text(prov, "hostname");
  std::map<std::size_t, std::string> placement_by_np;  // the first launch of each process count
  if (const nlohmann::json& launches = member(prov, "launches"); launches.is_array())
    for (const nlohmann::json& l : launches) {
      const nlohmann::json& id = member(l, "launch");
      const nlohmann::json& hosts = member(l, "hosts");
      if (id.is_number_integer() && hosts.is_array()) f.launch_hosts[id.get<int>()] = hosts.size();
      if (!hosts.is_array() || hosts.empty()) continue;
      if (id.is_number_integer())
        for (const nlohmann::json& h : hosts)
          f.launch_ranks[id.get<int>()][text(h, "name")] += member(h, "ranks").is_array() ? member(h, "ranks").size() : 0;
      std::vector<std::size_t> per_host;
      for (const nlohmann::json& h : hosts)
        per_host.push_back(member(h, "ranks").is_array() ? member(h, "ranks").size() : 0);
      std::size_t np = 0;
      for (std::size_t n : per_host) np += n;
      f.several_nodes = f.several_nodes || per_host.size() > 1;
      placement_by_np.emplace(np, placement_text(per_host));
    }
  for (const auto& [np, text] : placement_by_np) f.placements.push_back(fmt::format("np {}: {}", np, text));
  if (const nlohmann::json& profile = member(prov, "profile"); profile.is_object()) f.profile = profile;
  return f;
}

}  // namespace pico
