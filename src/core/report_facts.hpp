// SPDX-License-Identifier: BSD-3-Clause
// What a report says outside its cases, read once (issue 28's typed report):
// the keys report_builder.cpp writes into `pico`, `experiment`, `platform`,
// `run` and `provenance` (docs/report.md) are read here and nowhere else by
// the code that decides or shows from them (tune, tune --check, fit, run's
// summary, the HTML report's provenance and labels). A report of an older
// pico that lacks a key, or holds one of the wrong type, reads as its default.
// (The cases are CaseResult, core/case_result.hpp.)
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/host_load.hpp"

namespace pico {

// A host's hwloc counts (provenance.hosts[].topology).
struct ReportTopology {
  int packages = 0;
  int numa_nodes = 0;
  int cores = 0;
  int pus = 0;
};

struct ReportHost {
  std::string name;
  std::size_t ranks = 0;  // the ranks it ran (provenance.hosts[].ranks)
  std::optional<ReportTopology> topology;
};

// A file the run read (experiment, platform): its name and path.
struct ReportSource {
  std::string name;
  std::string path;
};

struct ReportFacts {
  // pico: the build that wrote it.
  std::string pico_version, pico_git_hash, pico_build_type;
  ReportSource experiment;
  std::string platform;        // platform.name
  std::string platform_path;   // platform.path
  // run
  std::string results_dir;     // run.results_dir
  std::string started_utc, finished_utc;
  std::optional<double> wall_s;
  std::optional<int> launches;
  // run.host_load: the load beside the run on the front end's host (core/host_load.hpp); none before pico took it
  std::optional<HostLoad> host_load;
  // experiment.parsed.timing.target_ci: the interval the timed loops aimed at (the default where not recorded)
  double target_ci = 0.02;
  // provenance.mpi, as the worker met it
  std::string mpi_library;          // "unknown" where the section names none; "" without provenance.mpi
  std::string mpi_version;
  std::string mpi_library_version;  // MPI_Get_library_version's text
  std::string mpi_standard;
  // provenance.gpu
  std::string nccl_build;                   // "" without a GPU
  std::optional<nlohmann::json> gpu_devices;
  std::vector<ReportHost> hosts;            // provenance.hosts: the first launch's
  std::map<int, std::size_t> launch_hosts;  // provenance.launches: each launch's host count
  // provenance.launches: each launch's ranks per host name
  std::map<int, std::map<std::string, std::size_t>> launch_ranks;
  // Where each process count's ranks ran, from the launches' hosts, in order of
  // np: "np 4: 2 nodes x 2 ranks", "np 3: 2 nodes (2 + 1 ranks)", "np 2: 1 node".
  std::vector<std::string> placements;
  bool several_nodes = false;  // some launch spanned more than one host
  std::vector<std::vector<std::string>> launch_commands;  // each launch's argv
  std::map<std::string, std::string> env;   // rank 0's recorded environment
  std::string user, hostname;               // who ran the front end, and where
  // provenance.profile: the tuned profile the run loaded into the library
  // (pico run --profile), as the front end recorded it.
  std::optional<nlohmann::json> profile;

  // The hosts of the launch that ran a case, else of the first launch; at least 1.
  int hosts_of_launch(int launch) const;
};

// Throws nothing: a key of the wrong type reads as absent.
ReportFacts report_facts(const nlohmann::json& report);

}  // namespace pico
