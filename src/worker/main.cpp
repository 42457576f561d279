// SPDX-License-Identifier: BSD-3-Clause
// pico-worker: the MPI program mpirun/srun starts. Runs the cases of one
// launch request and streams one JSON line per case to cases.jsonl.
//
//   pico-worker --launch DIR/launch-<k>.json --out DIR
//   pico-worker --mpi-t-enums PREFIX     (the library's enumerated MPI_T variables, as JSON)
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "backends/backend.hpp"
#include "core/build_info.hpp"
#include "core/case_result.hpp"
#include "core/mpi_identity.hpp"
#include "harness/harness.hpp"
#include "harness/mpi_handles.hpp"
#include "instrumentation/interposer_probe.hpp"
#include "plan/plan.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/results_file.hpp"
#include "worker/algorithm_selector.hpp"
#include "worker/backend_registry.hpp"
#include "worker/case_runner.hpp"
#include "worker/clock_sync.hpp"
#include "worker/interposer_preload.hpp"
#include "worker/launch_info.hpp"
#include "worker/link_probe.hpp"
#include "worker/mpi_tools.hpp"
#include "worker/race_runner.hpp"

namespace {

struct Args {
  std::string launch_file;
  std::string out_dir;
  std::string mpi_t_enums;  // --mpi-t-enums PREFIX: print the library's enumerated control variables, run nothing
};

bool parse_args(int argc, char** argv, Args& args) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--version") {
      // MPI_Get_library_version may be called before MPI_Init (MPI 3.0, 8.1.1): `pico list libraries`
      // asks each worker which MPI it was linked against without starting one.
      char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
      int length = 0;
      MPI_Get_library_version(library, &length);
      const std::string_view text(library, static_cast<std::size_t>(length));
      fmt::print("pico-worker {} ({})\nMPI: {}\n", pico::build::version, pico::build::git_hash,
                 text.substr(0, text.find_first_of(",\n")));
      std::exit(0);
    }
    if (i + 1 < argc && a == "--mpi-t-enums") args.mpi_t_enums = argv[++i];
    else if (i + 1 < argc && a == "--launch") args.launch_file = argv[++i];
    else if (i + 1 < argc && a == "--out") args.out_dir = argv[++i];
    else return false;
  }
  return !args.mpi_t_enums.empty() || (!args.launch_file.empty() && !args.out_dir.empty());
}

// The library's enumerated control variables under a prefix, as JSON on stdout (one rank:
// mpirun -np 1 pico-worker --mpi-t-enums coll_). After MPI_Init, when every component has
// registered its variables.
int print_mpi_t_enums(const std::string& prefix) {
  nlohmann::json out = nlohmann::json::object();
  {
    pico::MpiToolsSession tools;
    if (!tools.ok()) {
      std::fprintf(stderr, "pico-worker: MPI_T_init_thread failed\n");
      return 3;
    }
    for (const auto& [variable, items] : pico::enumerated_variables(prefix))
      for (const auto& [value, name] : items) out[variable][std::to_string(value)] = name;
  }
  std::printf("%s\n", out.dump(1).c_str());
  return 0;
}

// A case of a launch whose worker met another MPI library than planned:
// failed, with nothing measured under the planned library's labels.
pico::CaseResult refused_case(const pico::Case& c, const std::string& reason, const pico::MpiLibrary& library,
                              int launch) {
  pico::CaseResult r = pico::unmeasured_result(c, pico::CaseStatus::failed, reason, launch, 0);
  r.library = library.name;
  return r;
}

// The interposer where every rank has it loaded (the harness's allreduce
// keeps the per-case comparison collective), else none, with why.
std::optional<pico::InterposerProbe> agreed_interposer(MPI_Comm harness, std::string& why_not) {
  std::string not_found;
  auto probe = pico::InterposerProbe::find(not_found);
  if (why_not.empty()) why_not = not_found;  // the preload's own reason, where it gave one, says more
  int everywhere = probe ? 1 : 0;
  pico::harness::allreduce(harness, &everywhere, 1, pico::harness::Reduction::min);
  if (everywhere == 1) return probe;
  if (probe) why_not = "the interposer is not loaded on every rank";
  return std::nullopt;
}

int run(const Args& args, const std::string& preload_status) {
  using namespace pico;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const std::optional<nlohmann::json> launch_json = read_results_json(args.launch_file, "");
  if (!launch_json) throw std::runtime_error(fmt::format("no launch file {}", args.launch_file));
  const LaunchRequest request =
      reading_file(args.launch_file, [&] { return launch_request_from_json(*launch_json); });
  if (request.np != size) {
    if (rank == 0) fmt::print(stderr, "pico-worker: launch asks for {} ranks but MPI started {}\n", request.np, size);
    return 2;
  }

  // The harness communicator exists before any algorithm forcing and is the
  // only one used for barriers, timing reductions and provenance.
  DupComm harness(MPI_COMM_WORLD);
  DupComm measured(MPI_COMM_WORLD);

  const MpiLibrary library = detect_mpi_library();
  nlohmann::json info = collect_launch_info(harness.get(), args.out_dir, library);
  // Without per-rank timing no offsets are needed, and the ping-pong with
  // every rank in turn (32 rounds each, growing with the rank count) is skipped.
  const LaunchClock clock = request.timing.rank_timing ? synchronise_clocks(harness.get()) : LaunchClock{};
  const std::vector<std::string> hosts = rank_hosts(info);
  // Beside the clocks and skipped with them: which links are slow, pair by pair (core/link_probe.hpp).
  const nlohmann::json links = request.timing.rank_timing ? probe_links(harness.get(), hosts) : nlohmann::json();
  if (rank == 0) {
    if (request.timing.rank_timing) info["clock_sync"] = clock.record;
    if (!links.is_null()) info["link_probe"] = links;
    info["launch"] = request.launch;
    write_results_file(fmt::format("{}/launch-{}.info.json", args.out_dir, request.launch), info.dump(1) + "\n");
  }

  std::unique_ptr<JsonLinesFile> cases_log, progress_log;
  if (rank == 0) {
    cases_log = std::make_unique<JsonLinesFile>(args.out_dir + "/cases.jsonl");
    progress_log = std::make_unique<JsonLinesFile>(args.out_dir + "/progress.jsonl");
  }
  // Every rank decides alike: the library is the same on all of them.
  if (const std::string mismatch = mpi_library_mismatch(request.planned_mpi, library.identity()); !mismatch.empty()) {
    if (rank == 0) {
      fmt::print(stderr, "pico-worker: {}\n", mismatch);
      for (const Case& c : request.cases) cases_log->append(to_json(refused_case(c, mismatch, library, request.launch)));
    }
    return 2;
  }
  MpiToolsSession tools;  // after the MPI session: MPI_T must finalize first
  AlgorithmSelector selector(harness.get(), measured.get());
  PapiCounters papi(request.instrumentation.phases ? request.instrumentation.papi : std::vector<std::string>{});
  std::string interposer_missing = preload_status;
  auto interposer = agreed_interposer(harness.get(), interposer_missing);
  const CaseContext ctx{.harness = harness.get(),
                        .selector = &selector,
                        .timing = request.timing,
                        .validation = request.validation,
                        .library = library.name,
                        .launch = request.launch,
                        .instrumentation = request.instrumentation,
                        .papi = &papi,
                        .ran_algorithm = &request.ran_algorithm,
                        .algorithm_functions = &request.algorithm_functions,
                        .interposer = interposer ? &*interposer : nullptr,
                        .interposer_missing = interposer_missing,
                        .clock = &clock,
                        .rank_hosts = &hosts};
  auto started = [&](const Case& c, std::optional<int> race_round) {
    if (rank != 0) return;
    nlohmann::json event{{"event", "start"}, {"case_id", c.case_id}, {"launch", request.launch}};
    if (race_round) event["race_round"] = *race_round;
    progress_log->append(event);
  };
  auto finished = [&](const CaseResult& result) {
    if (rank == 0) cases_log->append(to_json(result));
  };
  const RaceSink sink{.round_started = started, .finished = finished};
  if (request.timing.race)
    run_races(request.cases, ctx, *request.timing.race, sink);
  else
    run_interleaved(request.cases, ctx, sink);
  release_backend_resources();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!parse_args(argc, argv, args)) {
    std::fprintf(stderr, "usage: pico-worker --launch LAUNCH.json --out DIR   (started by pico run)\n");
    return 2;
  }
  // Before MPI_Init: it may re-execute the worker with the interposer preloaded.
#ifdef PICO_INTERPOSER_FILE
  const std::string preload_status = pico::preload_interposer(argv, PICO_INTERPOSER_FILE);
#else
  const std::string preload_status = "this worker was built without the Open MPI interposer";
#endif
  pico::MpiSession mpi(&argc, &argv);
  if (!args.mpi_t_enums.empty()) return print_mpi_t_enums(args.mpi_t_enums);
  try {
    return run(args, preload_status);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pico-worker: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}
