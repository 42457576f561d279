#include "worker/launch_info.hpp"

#include <unistd.h>

#include <regex>
#include <vector>

#include <fmt/format.h>

#include "instrumentation/provenance.hpp"
#include "instrumentation/topology.hpp"

namespace pico {
namespace {

// Gathers one string per rank at rank 0 of comm.
std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

bool is_host_leader(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  return node_rank == 0;
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

nlohmann::json collect_launch_info(MPI_Comm comm, const std::string& out_dir, const MpiLibrary& library) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string host = host_name();
  const auto cpus = current_cpus();

  nlohmann::json topology = nullptr;
  std::string xml_name;
  if (is_host_leader(comm)) {
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
  const auto all = gather_strings(comm, mine.dump());
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
          {"env", relevant_environment()}};
}

}  // namespace pico
