// SPDX-License-Identifier: BSD-3-Clause
// An emulated cluster (scripts/emulated-cluster.sh): the nodes, addresses and
// link rates the script built, read from the description it wrote, so that a
// report on such a platform says it was emulated and how.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct EmulatedLink {
  std::string rate;       // as tc was given it, e.g. "1gbit"
  double rate_bps = 0;    // the same in bits per second
};

struct EmulatedNode {
  std::string name;       // its host name (and network namespace)
  std::string address;
  int rack = 1;
  EmulatedLink link;      // the node's link, limited to this rate each way
  std::string cpus;       // the cpus its processes run on (taskset -c); empty: any (--no-pin, or an older script)
};

struct EmulatedCluster {
  std::string name;       // the script's PICO_CLUSTER_NAME
  std::string shaping;    // how the links are limited, in words
  int ppn = 1;            // slots per node
  bool slurm = false;     // whether it runs a Slurm
  std::vector<EmulatedNode> nodes;
  std::optional<EmulatedLink> uplink;  // between rack 1 and rack 2, when there are two
};

// The description's text; file_for_messages names it in errors (InputError).
EmulatedCluster parse_emulated_cluster(const std::string& json_text, const std::string& file_for_messages);
// A missing file is a InputError saying how to start the cluster.
EmulatedCluster read_emulated_cluster(const std::string& path);
nlohmann::json to_json(const EmulatedCluster& cluster);

}  // namespace pico
