// SPDX-License-Identifier: BSD-3-Clause
#include "config/emulated_cluster.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "config/data_files.hpp"
#include "support/input_error.hpp"
#include "support/jsonl.hpp"

namespace pico {
namespace {

constexpr const char* kStartHint =
    "start the cluster first: sudo scripts/emulated-cluster.sh start --nodes N (docs/platforms.md)";

EmulatedLink link_from(const nlohmann::json& j) {
  EmulatedLink l{j.at("rate").get<std::string>(), j.at("rate_bps").get<double>()};
  if (l.rate_bps <= 0) throw std::invalid_argument(fmt::format("rate_bps {} is not positive", l.rate_bps));
  return l;
}

nlohmann::json link_json(const EmulatedLink& l) { return {{"rate", l.rate}, {"rate_bps", l.rate_bps}}; }

}  // namespace

EmulatedCluster parse_emulated_cluster(const std::string& json_text, const std::string& file_for_messages) {
  try {
    const auto j = nlohmann::json::parse(json_text);
    if (!j.value("emulated", false)) throw std::invalid_argument("\"emulated\" is not true");
    EmulatedCluster c;
    c.name = j.at("name").get<std::string>();
    c.shaping = j.at("shaping").get<std::string>();
    c.ppn = j.at("ppn").get<int>();
    c.slurm = j.at("slurm").get<bool>();
    for (const auto& n : j.at("nodes"))
      c.nodes.push_back({n.at("name").get<std::string>(), n.at("address").get<std::string>(), n.at("rack").get<int>(),
                         link_from(n), n.value("cpus", std::string())});
    if (c.nodes.empty()) throw std::invalid_argument("no nodes");
    if (!j.at("uplink").is_null()) c.uplink = link_from(j.at("uplink"));
    return c;
  } catch (const std::exception& e) {  // nlohmann's parse and type errors, and the checks above
    throw InputError(file_for_messages, 0, 0, fmt::format("not an emulated cluster description: {}", json_error_text(e)),
                      "it is written by scripts/emulated-cluster.sh start; restart the cluster");
  }
}

EmulatedCluster read_emulated_cluster(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path, 0, 0, "the platform runs on an emulated cluster that is not running (no description file)",
                      kStartHint);
  return parse_emulated_cluster(read_config_file(path, "the emulated cluster description", kStartHint), path);
}

nlohmann::json to_json(const EmulatedCluster& c) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : c.nodes)
    nodes.push_back({{"name", n.name}, {"address", n.address}, {"rack", n.rack}, {"rate", n.link.rate},
                     {"rate_bps", n.link.rate_bps}, {"cpus", n.cpus}});
  return {{"emulated", true},
          {"name", c.name},
          {"shaping", c.shaping},
          {"ppn", c.ppn},
          {"slurm", c.slurm},
          {"nodes", nodes},
          {"uplink", c.uplink ? link_json(*c.uplink) : nlohmann::json(nullptr)}};
}

}  // namespace pico
