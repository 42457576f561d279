// SPDX-License-Identifier: BSD-3-Clause
// One case, start to finish: prepare, time, validate, release, summarise.
#pragma once

#include <string>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "core/case.hpp"
#include "core/case_result.hpp"
#include "core/ran_algorithm.hpp"
#include "instrumentation/interposer_probe.hpp"
#include "instrumentation/papi_counters.hpp"
#include "worker/clock_sync.hpp"

namespace pico {

class AlgorithmSelector;

struct CaseContext {
  MPI_Comm harness;   // barriers and result gathering; never forced, never timed
  AlgorithmSelector* selector;  // gives the communicator the case is measured on
  TimingSpec timing;
  bool validation = true;
  std::string library;  // the MPI library's short name, recorded per case
  int launch = 0;
  InstrumentationSpec instrumentation;
  PapiCounters* papi = nullptr;  // counters read at phase boundaries, shared by the launch
  // Which algorithm ran (selection.actual): per backend where the evidence
  // comes from, the functions the interposer reports, and the interposer
  // itself (null, with why, when it is not loaded).
  const std::map<std::string, RanAlgorithmSource>* ran_algorithm = nullptr;
  const AlgorithmFunctions* algorithm_functions = nullptr;
  InterposerProbe* interposer = nullptr;
  std::string interposer_missing;
  // Per-rank timing: the launch's clock offsets (null: none taken) and, on
  // rank 0, each rank's host.
  const LaunchClock* clock = nullptr;
  const std::vector<std::string>* rank_hosts = nullptr;
};

// Collective over both communicators. Returns the case's result (meaningful
// on rank 0 of harness).
CaseResult run_case(const Case& c, const CaseContext& ctx);

}  // namespace pico
