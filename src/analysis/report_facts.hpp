// SPDX-License-Identifier: BSD-3-Clause
// What a report says outside its cases, read once (issue 28's typed report):
// the keys report_builder.cpp writes into `platform`, `run` and
// `provenance` (docs/report.md) are read here and nowhere else by the verbs
// that decide from them (tune, tune --check, fit, run's summary). A report
// of an older pico that lacks a key reads as its default.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct ReportHost {
  std::string name;
  std::size_t ranks = 0;  // the ranks it ran (provenance.hosts[].ranks)
};

struct ReportFacts {
  std::string platform;                  // platform.name
  std::string results_dir;               // run.results_dir
  std::string mpi_library;               // provenance.mpi.library as the worker met it ("unknown"; "" without provenance.mpi)
  std::string mpi_version;               // provenance.mpi.version
  std::string nccl_build;                // provenance.gpu.nccl_build; "" without a GPU
  std::vector<ReportHost> hosts;         // provenance.hosts: the first launch's
  std::map<int, std::size_t> launch_hosts;  // provenance.launches: each launch's host count
  // provenance.profile: the tuned profile the run loaded into the library
  // (pico run --profile), as the front end recorded it.
  std::optional<nlohmann::json> profile;

  // The hosts of the launch that ran a case, else of the first launch; at least 1.
  int hosts_of_launch(int launch) const;
};

// Throws nothing: a key of the wrong type reads as absent.
ReportFacts report_facts(const nlohmann::json& report);

}  // namespace pico
