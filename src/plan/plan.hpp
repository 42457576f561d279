// SPDX-License-Identifier: BSD-3-Clause
// Expanding experiment x platform into cases and launch groups.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/catalog.hpp"
#include "config/experiment.hpp"
#include "config/to_json.hpp"
#include "core/gpu_support.hpp"
#include "core/case.hpp"
#include "core/rank_placement.hpp"
#include "core/mpi_identity.hpp"
#include "core/ran_algorithm.hpp"

namespace pico {

// A case the plan already knows cannot run, with the reason.
struct SkippedCase {
  Case c;
  std::string reason;
};

// Cases that share a process count and a pre-MPI_Init environment, so one
// launch of the worker runs them all.
struct LaunchGroup {
  int np = 1;  // MPI processes: the cases' np over their ranks_per_process (1 but for nccl's gpus_per_process)
  std::map<std::string, std::string> env;  // set before MPI_Init (catalogue launch env, MPICH CVARs)
  std::vector<Case> cases;
};

// What the plan needs to know about the platform: which MPI library (and
// version) the `mpi` backend will meet, to pick its catalogue.
struct PlanTarget {
  std::string mpi_library = "unknown";  // openmpi | mpich | unknown
  std::string mpi_version;
  // What `<launcher> --version` said, where the launcher was asked; provenance only.
  std::optional<MpiIdentity> launcher_says{};
  MpiIdentity mpi() const { return {mpi_library, mpi_version}; }
  // The NCCL this build's worker was compiled against; empty without the NCCL backend.
  std::string nccl_version = std::string(gpu::nccl_build_version());
  // How the platform spreads a launch's ranks over nodes (han needs several nodes).
  RankPlacement placement{};
  // The version a catalogue's `versions` ranges refer to.
  const std::string& version_for(const Catalog& cat) const {
    return cat.runtime == "nccl" ? nccl_version : mpi_version;
  }
};

struct Plan {
  std::vector<Case> cases;  // every case in plan order, skipped ones included
  std::vector<SkippedCase> skipped;
  // "WHERE: WHAT" for what is planned as the experiment says but perhaps not
  // as meant: its own warnings (decimal units), then sizes rounded down to
  // whole elements. Not in plan.json: said when planned.
  std::vector<std::string> warnings;
  std::vector<LaunchGroup> groups;
  TimingSpec timing;
  InstrumentationSpec instrumentation;
  bool validation = true;
  int repetitions = 1;  // the experiment's; groups and cases of repetition R follow those of R - 1
  std::uint64_t repetition_seed = 1;
};

Plan make_plan(const Experiment& e, const PlanTarget& target = {});
// The cases a run launches: the plan's, less those skipped at plan time.
std::size_t runnable_cases(const Plan& p);
// The seconds of timed loops the plan's cases take: a time_budget each, two
// for a non-blocking case (its overlap loops take up to one more).
double timed_loops_s(const Plan& p);
// How long the plan's cases take: each case's timed loop stops at its time
// budget (warm-up, set-up and validation come on top), and a case still
// running at case_timeout is killed, so runnable x case_timeout bounds the run.
// "N case(s) to run: about T of timed loops (time_budget B each); at most M (case_timeout C each)".
std::string plan_duration_text(const Plan& p);
// The plan's warnings, one "pico: warning: WHERE: WHAT" line each, for stderr.
std::string warnings_text(const Plan& p);
// The skipped cases grouped by reason, most frequent first, with counts and
// the first case ids: a sweep skips many cases for a few reasons, and one line
// per case repeated each reason (issue 65: 117 lines, 9 reasons); each
// reason wrapped to 100 columns. "" when nothing is skipped.
std::string skipped_text(const std::vector<SkippedCase>& skipped);
// The processes each launch group starts, in group order.
std::vector<int> process_counts(const Plan& p);

nlohmann::json plan_to_json(const Plan& p);
// The plan a results directory was run with (plan.json), for --resume.
Plan plan_from_json(const nlohmann::json& j);

// What one launch of the worker is asked to do (launch-<k>.json).
struct LaunchRequest {
  int launch = 0;
  int np = 1;  // MPI processes, as LaunchGroup::np
  std::map<std::string, std::string> env;
  TimingSpec timing;
  bool validation = true;
  std::vector<Case> cases;
  InstrumentationSpec instrumentation;
  // The library the plan was made for; a worker that meets another fails every case.
  MpiIdentity planned_mpi;
  // How the worker tells which algorithm ran (selection.actual): per backend
  // of the cases, where the evidence comes from (catalogue `actual`), and the
  // library functions the interposer may see, with the algorithm each runs.
  std::map<std::string, RanAlgorithmSource> ran_algorithm;
  AlgorithmFunctions algorithm_functions;
};
// The request to run `cases` (a group's, or those a relaunch has left) of `group` as launch `launch`.
LaunchRequest launch_request_for(int launch, const LaunchGroup& group, std::vector<Case> cases, const Plan& plan,
                                 const PlanTarget& target);
nlohmann::json launch_request_to_json(const LaunchRequest& r);
LaunchRequest launch_request_from_json(const nlohmann::json& j);

}  // namespace pico
