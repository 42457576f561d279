// SPDX-License-Identifier: BSD-3-Clause
#include "worker/launch_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "core/gpu_support.hpp"

#include "instrumentation/provenance.hpp"
#include "instrumentation/topology.hpp"
#include "harness/harness.hpp"

namespace pico {
namespace {

// The lowest rank on each host exports its topology. Decided from host names
// over the harness, not MPI_Comm_split_type, whose internal collectives a
// forced MPICH algorithm would reach.
bool is_host_leader(MPI_Comm comm, const std::string& host) {
  const auto hosts = harness::gather_strings(comm, host);
  std::string leaders;  // one '1' or '0' per rank
  for (std::size_t r = 0; r < hosts.size(); ++r)
    leaders += std::find(hosts.begin(), hosts.begin() + static_cast<long>(r), hosts[r]) == hosts.begin() + static_cast<long>(r) ? '1' : '0';
  leaders = harness::broadcast_string(comm, leaders, 0);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return leaders[static_cast<std::size_t>(rank)] == '1';
}

}  // namespace

MpiLibrary parse_mpi_library(const std::string& version_string) {
  MpiLibrary lib;
  lib.version_string = version_string;
  std::smatch m;
  if (std::regex_search(version_string, m, std::regex(R"(Open MPI v(\d+(\.\d+)*))"))) {
    lib.name = "openmpi";
    lib.version = m[1];
  } else if (std::regex_search(version_string, m, std::regex(R"(MPICH Version:\s*(\d+(\.\d+)*\S*))"))) {
    lib.name = "mpich";
    lib.version = m[1];
  } else {
    lib.name = "unknown";
  }
  return lib;
}

MpiLibrary detect_mpi_library() {
  char buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(buf, &length);
  std::string text(buf, static_cast<std::size_t>(length));
  // Some libraries count the terminating NUL or end with a newline.
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n' || text.back() == ' ')) text.pop_back();
  MpiLibrary lib = parse_mpi_library(text);
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  lib.mpi_standard = fmt::format("{}.{}", major, minor);
  return lib;
}

namespace {

// What this build and rank 0's node offer on the GPU side (null without the NCCL backend).
nlohmann::json gpu_provenance() {
  if (gpu::nccl_build_version().empty()) return nullptr;
  const gpu::DeviceCensus census = gpu::census();
  nlohmann::json j = {{"nccl_build", gpu::nccl_build_version()},
                      {"cuda_build", gpu::cuda_build_version()},
                      {"devices", census.names}};
  if (!census.error.empty()) j["note"] = census.error;
  return j;
}

}  // namespace

nlohmann::json collect_launch_info(MPI_Comm comm, const std::string& out_dir, const MpiLibrary& library) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string host = host_name();
  const auto cpus = current_cpus();

  nlohmann::json topology = nullptr;
  std::string xml_name;
  if (is_host_leader(comm, host)) {
    xml_name = fmt::format("topology-{}.xml", host);
    topology = host_topology(out_dir + "/" + xml_name);
    if (topology.is_null()) xml_name.clear();
  }
  const nlohmann::json mine = {{"rank", rank},
                               {"host", host},
                               {"pid", static_cast<int>(getpid())},
                               {"cpus", cpus},
                               {"cpuset", cpu_list_string(cpus)},
                               {"topology", topology},
                               {"topology_xml", xml_name}};
  const auto all = harness::gather_strings(comm, mine.dump());
  if (rank != 0) return nullptr;

  nlohmann::json ranks = nlohmann::json::array();
  nlohmann::json hosts = nlohmann::json::array();
  nlohmann::json topologies = nlohmann::json::object();
  for (const auto& text : all) {
    auto r = nlohmann::json::parse(text);
    const std::string h = r["host"];
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](const auto& x) { return x["name"] == h; });
    if (it == hosts.end()) {
      hosts.push_back({{"name", h}, {"ranks", nlohmann::json::array()}, {"topology", nullptr}, {"topology_xml", nullptr}});
      it = hosts.end() - 1;
    }
    (*it)["ranks"].push_back(r["rank"]);
    if (!r["topology"].is_null()) {
      (*it)["topology"] = r["topology"];
      (*it)["topology_xml"] = r["topology_xml"];
      topologies[h] = r["topology"];
    }
    ranks.push_back({{"rank", r["rank"]}, {"host", h}, {"pid", r["pid"]}, {"cpuset", r["cpuset"]}, {"cpus", r["cpus"]}});
  }
  return {{"mpi",
           {{"library_version", library.version_string},
            {"library", library.name},
            {"version", library.version},
            {"mpi_standard", library.mpi_standard}}},
          {"hosts", hosts},
          {"ranks", ranks},
          {"topology", topologies},
          {"env", relevant_environment()},
          {"gpu", gpu_provenance()}};
}

}  // namespace pico
