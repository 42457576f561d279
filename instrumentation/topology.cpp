// SPDX-License-Identifier: BSD-3-Clause
#include "instrumentation/topology.hpp"

#include <sched.h>

#include <map>
#include <tuple>

#include <fmt/format.h>

#ifdef PICO_WITH_HWLOC
#include <hwloc.h>

#include "support/results_file.hpp"
#endif

namespace pico {

std::vector<int> current_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

std::string cpu_list_string(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

#ifdef PICO_WITH_HWLOC
namespace {

struct TopologyHandle {
  hwloc_topology_t topo = nullptr;
  TopologyHandle() {
    if (hwloc_topology_init(&topo) != 0) {
      topo = nullptr;
      return;
    }
    // Keep GPUs and NICs: they are what collective performance hinges on.
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(topo) != 0) {
      hwloc_topology_destroy(topo);
      topo = nullptr;
    }
  }
  ~TopologyHandle() {
    if (topo != nullptr) hwloc_topology_destroy(topo);
  }
  TopologyHandle(const TopologyHandle&) = delete;
  TopologyHandle& operator=(const TopologyHandle&) = delete;
};

std::string cache_type_name(hwloc_obj_cache_type_e t) {
  switch (t) {
    case HWLOC_OBJ_CACHE_DATA: return "data";
    case HWLOC_OBJ_CACHE_INSTRUCTION: return "instruction";
    default: return "unified";
  }
}

nlohmann::json io_device_names(hwloc_topology_t topo, bool gpus) {
  nlohmann::json names = nlohmann::json::array();
  for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_osdev(topo, obj)) != nullptr;) {
    const auto type = obj->attr->osdev.type;
    const bool is_gpu = type == HWLOC_OBJ_OSDEV_GPU || type == HWLOC_OBJ_OSDEV_COPROC;
    const bool is_nic = type == HWLOC_OBJ_OSDEV_NETWORK || type == HWLOC_OBJ_OSDEV_OPENFABRICS;
    if ((gpus && is_gpu) || (!gpus && is_nic)) names.push_back(obj->name != nullptr ? obj->name : "?");
  }
  return names;
}

}  // namespace

nlohmann::json host_topology(const std::string& xml_path) {
  TopologyHandle handle;
  if (handle.topo == nullptr) return nullptr;
  hwloc_topology_t topo = handle.topo;
  auto count = [&](hwloc_obj_type_t t) { return hwloc_get_nbobjs_by_type(topo, t); };

  // Caches grouped by (level, type, size).
  std::map<std::tuple<unsigned, std::string, unsigned long long>, int> caches;
  for (int t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L5CACHE; ++t) {
    for (int i = 0; i < count(static_cast<hwloc_obj_type_t>(t)); ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(topo, static_cast<hwloc_obj_type_t>(t), static_cast<unsigned>(i));
      ++caches[{obj->attr->cache.depth, cache_type_name(obj->attr->cache.type), obj->attr->cache.size}];
    }
  }
  for (int t = HWLOC_OBJ_L1ICACHE; t <= HWLOC_OBJ_L3ICACHE; ++t) {
    for (int i = 0; i < count(static_cast<hwloc_obj_type_t>(t)); ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(topo, static_cast<hwloc_obj_type_t>(t), static_cast<unsigned>(i));
      ++caches[{obj->attr->cache.depth, cache_type_name(obj->attr->cache.type), obj->attr->cache.size}];
    }
  }
  nlohmann::json cache_list = nlohmann::json::array();
  for (const auto& [key, n] : caches)
    cache_list.push_back({{"level", std::get<0>(key)}, {"type", std::get<1>(key)}, {"size_bytes", std::get<2>(key)},
                          {"count", n}});

  // Exported to memory and written as every results file is (never through a link): hwloc's own
  // export opens the path itself and would follow a topology-HOST.xml planted as a link.
  if (!xml_path.empty()) {
    char* xml = nullptr;
    int xml_bytes = 0;
    if (hwloc_topology_export_xmlbuffer(topo, &xml, &xml_bytes, 0) == 0 && xml != nullptr) {
      const std::string text(xml, xml_bytes > 0 ? static_cast<std::size_t>(xml_bytes - 1) : 0);  // less its NUL
      hwloc_free_xmlbuffer(topo, xml);
      write_results_file(xml_path, text);
    }
  }

  return {
      {"packages", count(HWLOC_OBJ_PACKAGE)},
      {"numa_nodes", count(HWLOC_OBJ_NUMANODE)},
      {"cores", count(HWLOC_OBJ_CORE)},
      {"pus", count(HWLOC_OBJ_PU)},
      {"caches", cache_list},
      {"gpus", io_device_names(topo, true)},
      {"nics", io_device_names(topo, false)},
      {"hwloc_api_version", fmt::format("{:x}", HWLOC_API_VERSION)},
  };
}
#else
nlohmann::json host_topology(const std::string&) { return nullptr; }
#endif

}  // namespace pico
