// SPDX-License-Identifier: BSD-3-Clause
// What the machine looks like (hwloc) and where this process is bound.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// The CPUs this process may run on, from sched_getaffinity.
std::vector<int> current_cpus();
// "0-3,8" form of a CPU list.
std::string cpu_list_string(const std::vector<int>& cpus);

// Counts of packages, NUMA nodes, cores, PUs; caches by level and type; GPU
// and NIC names. Null JSON when pico was built without hwloc or loading fails.
// When xml_path is not empty the full topology is also exported there.
nlohmann::json host_topology(const std::string& xml_path);

}  // namespace pico
