// SPDX-License-Identifier: BSD-3-Clause
#include "launch/run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "config/emulated_cluster.hpp"
#include "config/units.hpp"
#include "core/host_load.hpp"
#include "core/noise_guard.hpp"
#include "core/oversubscription.hpp"
#include "instrumentation/provenance.hpp"
#include "launch/estimate_history.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "launch/mpi_detect.hpp"
#include "launch/new_results_dir.hpp"
#include "launch/pilot.hpp"
#include "launch/profile_loading.hpp"
#include "launch/results_lock.hpp"
#include "launch/resume.hpp"
#include "launch/run_record.hpp"
#include "launch/slurm_run.hpp"
#include "launch/slurm_script.hpp"
#include "plan/wall_estimate.hpp"
#include "reports/fitted_table.hpp"
#include "reports/render.hpp"
#include "support/counted.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/interrupt.hpp"
#include "support/json_file.hpp"
#include "support/load_average.hpp"
#include "support/results_file.hpp"
#include "support/shell_words.hpp"
#include "support/wrapped_text.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

// Runs `write`; a WriteError is kept, not thrown (the first one wins), so that
// the run still reports and prints what it measured.
void keep_write_error(std::string& first_error, const std::function<void()>& write) {
  try {
    write();
  } catch (const WriteError& e) {
    if (first_error.empty()) first_error = e.what();
  }
}

void set_write_error(RunResult& result, const std::string& error) {
  if (error.empty() || !result.write_error.empty()) return;
  result.write_error = error;
  result.exit_code = kWriteErrorExitCode;
}

// Runs a plan's launches on the local scheduler and updates run.json. A
// results file that cannot be written stops the launches (the last one is
// stopped with it); what was measured until then is reported.
RunResult run_locally(const std::string& dir, const Plan& plan, const Platform& platform, const PlanTarget& target,
                      nlohmann::json run, bool progress, int first_launch) {
  const auto wall_start = std::chrono::steady_clock::now();
  install_interrupt_handlers();
  // The load beside this session's launches, for the noise guard (core/noise_guard.hpp): taken before any rank runs.
  const std::optional<double> load_before = load_average_1min();
  std::string write_error;
  ExecutionLog log;
  keep_write_error(write_error, [&] {
    log = execute_plan(plan, platform, target, dir, ExecutorOptions{.progress = progress, .first_launch = first_launch});
  });
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  append_launches(run, log.launch_log, log.launch_commands, log.launches, wall_s);
  if (load_before)
    run["run"]["host_load"] = to_json(HostLoad{host_name(), this_host().cores, *load_before, load_average_1min(), wall_s});
  run["run"]["interrupted"] = interrupt_requested();
  keep_write_error(write_error, [&] { write_run_record(dir, run); });
  RunResult result = report_run(dir);
  set_write_error(result, write_error);
  return result;
}

// run.json with the launches a dead pico left unrecorded; written at once, so
// the report says what happened even if this resume runs nothing.
nlohmann::json read_run_record_with_dead_launches(const std::string& dir) {
  nlohmann::json run = read_run_record(dir);
  const nlohmann::json dead = dead_launch_entries(dir, reading_file((fs::path(dir) / "run.json").string(), [&] {
    return run.at("run").at("launch_log");
  }));
  if (dead.empty()) return run;
  append_launches(run, dead, nlohmann::json::array(), launches_in(dir), 0);
  write_run_record(dir, run);
  return run;
}

RunResult run_in_dir(const std::string& dir, const Plan& plan, const Experiment& experiment,
                     const Platform& platform, const PlanTarget& target, nlohmann::json run, bool progress,
                     bool wait, int first_launch) {
  if (platform.scheduler == "slurm")
    return run_on_slurm(SlurmRun{dir, plan, experiment.name, platform, target, std::move(run), first_launch}, progress,
                        wait);
  return run_locally(dir, plan, platform, target, std::move(run), progress, first_launch);
}

}  // namespace

RunResult report_run(const std::string& dir) {
  RunResult result;
  result.dir = dir;
  result.report = build_report(dir);
  for (const auto& c : result.report.at("cases"))
    if (c.at("status") == "failed") result.exit_code = 1;
  std::string write_error;
  keep_write_error(write_error, [&] {
    write_json_atomically((fs::path(dir) / "report.json").string(), result.report);
    result.report_written = true;
  });
  set_write_error(result, write_error);
  return result;
}

RunResult run_experiment(const RunRequest& request) {
  const PlanTarget target = plan_target_for(request.platform);
  Plan plan = make_plan(request.experiment, target);
  std::fputs(warnings_text(plan).c_str(), stderr);
  // A process count the platform cannot start is bad input now, not a failed job later.
  check_launches_fit(request.platform, process_counts(plan));
  // A worker pico cannot find is bad input now, not a failure in every case (nor a program found on PATH).
  worker_path(request.platform, target.mpi_library);
  // An emulated cluster that is not up is bad input now, before a results directory exists.
  std::optional<EmulatedCluster> emulated;
  if (!request.platform.emulated.empty()) emulated = read_emulated_cluster(request.platform.emulated);
  // A profile that cannot be loaded is bad input now, before a results directory exists.
  std::optional<ProfileLoad> profile;
  if (!request.profile.empty())
    profile = prepare_profile_load(request.profile, "--profile", target, plan);
  else if (!request.platform.tuning_profile.empty())
    profile = prepare_profile_load(request.platform.tuning_profile, request.platform.source_path + ": tuning.profile",
                                   target, plan);
  if (profile) apply_launch_env(*profile, plan);
  const std::string dir = new_results_dir_path(request.output_dir, request.output_base, request.platform.name);
  // Before the directory exists: it reads the environment, and refuses a variable that is not UTF-8.
  nlohmann::json run = new_run_record(request.experiment, request.platform, target, dir, utc_timestamp_iso());
  keep_results_unwritable_by_others();
  make_new_results_dir(dir);
  const ResultsDirLock lock(dir);
  write_results_file((fs::path(dir) / "experiment.yaml").string(), request.experiment.source_text);
  write_results_file((fs::path(dir) / "platform.yaml").string(), request.platform.source_text);
  write_results_file((fs::path(dir) / "plan.json").string(), plan_to_json(plan).dump(1) + "\n");
  if (emulated) run["emulated"] = to_json(*emulated);
  // How the plan expected the ranks to spread over nodes (han's constraints); provenance.launches says where they ran.
  run["placement"] = to_json(target.placement);
  Platform platform = request.platform;
  if (profile)
    for (const auto& [k, v] : install_profile(*profile, dir, run)) platform.env[k] = v;
  write_run_record(dir, run);
  if (request.progress)
    fmt::print(stderr, "{}", crowding_warnings(request.platform, process_counts(plan), load_average_1min()));
  // A race spends a budget rather than measuring every case: say how much before it starts.
  if (request.progress && plan.timing.race)
    fmt::print(stderr, "{}", wrapped(plan_duration_text(plan), kProseWidth, "  "));
  if (request.progress && !plan.timing.race && request.output_dir.empty())
    if (const std::string history =
            history_estimate_text(plan, request.output_base, request.platform.name, request.experiment.name);
        !history.empty())
      fmt::print(stderr, "{}", wrapped(history, kProseWidth, "  "));
  return run_in_dir(dir, plan, request.experiment, platform, target, std::move(run), request.progress,
                    request.wait, 0);
}

namespace {

// What a resume of DIR would run, read from DIR and checked as a new run's input is, before anything starts.
struct ResumeInputs {
  Experiment experiment;
  Platform platform;  // with the loaded profile's variables
  Plan plan;
  Plan rest;
  PlanTarget target;
};

ResumeInputs read_resume_inputs(const std::string& dir, const nlohmann::json& run) {
  ResumeInputs in{load_experiment((fs::path(dir) / "experiment.yaml").string()),
                  load_platform((fs::path(dir) / "platform.yaml").string()), read_plan(dir), {}, {}};
  in.rest = remaining_plan(in.plan, settled_case_ids(dir));
  const MpiIdentity planned = reading_file((fs::path(dir) / "run.json").string(),
                                           [&] { return mpi_identity_from_json(run.at("run").at("mpi_target")); });
  in.target = PlanTarget{planned.library, planned.version};
  // The profile the run loaded (exported into DIR when it started) loads again.
  const auto profile = reading_file((fs::path(dir) / "run.json").string(), [&] { return profile_env(run); });
  // Every file here may have been edited since the run: what starts processes is checked as a new run's is,
  // every launch group of the plan, not just those left (a tampered directory is refused even when complete).
  check_resumed_launches(dir, in.platform, in.plan, profile);
  for (const auto& [k, v] : profile) in.platform.env[k] = v;
  if (in.rest.cases.empty()) return in;
  // The platform file in DIR may have been edited, or its launcher removed, since the run: what a
  // run refuses at planning, a resume refuses too, before it starts anything.
  check_launches_fit(in.platform, process_counts(in.rest));
  worker_path(in.platform, in.target.mpi_library);
  return in;
}

void check_resumable(const std::string& dir) {
  if (!fs::exists(fs::path(dir) / "plan.json"))
    throw InputError(dir, 0, 0, "not a pico results directory (no plan.json)",
                      "give the directory pico run printed (the one holding report.json or run.json)");
}

}  // namespace

RunResult resume_run(const std::string& dir, bool progress, bool wait) {
  check_resumable(dir);
  keep_results_unwritable_by_others();
  const ResultsDirLock lock(dir);
  // Before anything opens a file there, front end or worker: a link or FIFO planted in DIR, or a DIR others
  // can write, is refused.
  check_results_dir(dir);
  // The workers record the environment as the first run did: a variable that is not UTF-8 is refused now.
  relevant_environment();
  if (slurm_job_uncollected(dir))
    throw InputError(dir, 0, 0, "the Slurm job of this run has not been collected yet",
                      "run `pico collect DIR` first (it waits for the job), or scancel it");
  nlohmann::json run = read_run_record(dir);
  ResumeInputs in = read_resume_inputs(dir, run);
  run = read_run_record_with_dead_launches(dir);
  if (in.rest.cases.empty()) {
    if (progress) fmt::print(stderr, "resume: every case of {} is already ok or skipped\n", dir);
    return report_run(dir);
  }
  if (progress)
    fmt::print(stderr, "resume: {} of {} case(s) left to run\n", in.rest.cases.size(), in.plan.cases.size());
  run["run"]["resumed_utc"].push_back(utc_timestamp_iso());
  return run_in_dir(dir, in.rest, in.experiment, in.platform, in.target, std::move(run), progress, wait,
                    launches_in(dir));
}

std::string resume_dry_run_text(const std::string& dir, std::size_t width) {
  check_resumable(dir);
  // Read only: no lock taken, nothing written; the same refusals as the resume itself.
  check_results_dir(dir);
  const ResumeInputs in = read_resume_inputs(dir, read_run_record(dir));
  if (in.rest.cases.empty()) return fmt::format("resume: every case of {} is already ok or skipped\n", dir);
  return wrapped(fmt::format("resume of {}: {} of {} case(s) left to run, from launch {} on", dir,
                             in.rest.cases.size(), in.plan.cases.size(), launches_in(dir)),
                 kProseWidth, "  ") +
         "\n" + dry_run_text(in.rest, in.platform, in.target, dir, in.experiment.name, launches_in(dir), "", width);
}

std::string crowding_warnings(const Platform& platform, const std::vector<int>& process_counts,
                              std::optional<double> load_now) {
  if (platform.scheduler == "slurm" || !platform.emulated.empty() || process_counts.empty()) return "";
  const int cores = this_host().cores;
  const int most = *std::max_element(process_counts.begin(), process_counts.end());
  std::string out;
  if (most > cores)
    out += warning_text(oversubscription_text({Oversubscription{-1, host_name(), most, cores}}));
  else if (load_now && load_above_cores(*load_now, most, cores))
    out += warning_text(fmt::format("a load of {:.1f} is already on this host's {} cores: {} rank(s) beside it "
                                    "would wait for cores, and the report would mark the sizes measured so as "
                                    "unable to support a verdict; run when the machine is quiet, or with fewer "
                                    "ranks (--np)",
                                    *load_now, cores, most));
  return out;
}

namespace {

// A dry run's case table: the run table's algorithm names (parameters, call form, alltoallv's counts), fitted as
// the run table is (reports/fitted_table.hpp: issue 65, its lines took 103-182 columns).
constexpr std::array<TextColumn, 9> kDryRunColumns = {{
    {"case_id", false},
    {"collective", false},
    {"backend/algorithm", false},
    {"dtype", false},
    {"op", false},
    {"count", true},
    {"size", true},
    {"np", true},
    {"in_place", false},
}};
constexpr std::size_t kDryRunNameColumn = 2, kDryRunCountColumn = 5;
static_assert(kDryRunColumns[kDryRunNameColumn].header == "backend/algorithm" &&
              kDryRunColumns[kDryRunCountColumn].header == "count");

std::string dry_run_table(const Plan& plan, std::size_t width) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : plan.cases)
    rows.push_back({c.case_id, std::string(name(c.collective)), algorithm_label(c), std::string(name(c.dtype)),
                    std::string(name(c.op)), fmt::format("{}", c.count), format_size(c.bytes), fmt::format("{}", c.np),
                    c.in_place ? "yes" : "no"});
  // The count, which the size and dtype say, is the column given up first.
  return fitted_table(kDryRunColumns, rows, width, {}, {kDryRunNameColumn}, {kDryRunCountColumn});
}

}  // namespace

std::string dry_run_text(const Plan& plan, const Platform& platform, const PlanTarget& target,
                         const std::string& dir_placeholder, const std::string& experiment_name, int first_launch,
                         const std::string& results_base, std::size_t width, const PilotOutcome* pilot) {
  // The lines around the table are wrapped as all pico's prose is, --wide or not (support/wrapped_text.hpp).
  const auto prose = [](const std::string& text) { return wrapped(text, kProseWidth, "  "); };
  std::string out = prose(fmt::format("{} ({} skipped) in {} launch group(s) on platform '{}' ({} {})",
                                      counted(plan.cases.size(), "case"), plan.skipped.size(), plan.groups.size(),
                                      platform.name, target.mpi_library, target.mpi_version)) +
                    "\n" + prose(plan_duration_text(plan));
  if (!plan.timing.race) {  // a race's line says what it spends
    const Calibration* calibration = pilot != nullptr && pilot->calibration ? &*pilot->calibration : nullptr;
    out += prose(wall_estimate_text(estimate_wall(plan, calibration), calibration, platform.name,
                                    pilot != nullptr ? pilot->why_not : ""));
  }
  if (!results_base.empty())
    if (const std::string history = history_estimate_text(plan, results_base, platform.name, experiment_name);
        !history.empty())
      out += prose(history);
  out += "\n" + dry_run_table(plan, width);
  out += skipped_text(plan.skipped);
  if (platform.scheduler == "slurm") {
    const auto job = slurm_job_script(plan, platform, target.mpi_library, slurm_job_name(platform, experiment_name),
                                      dir_placeholder, first_launch);
    return out + fmt::format("\njob script ({}/job.sbatch):\n{}", dir_placeholder, sbatch_script_text(job, platform));
  }
  out += "\nlaunch commands:\n";
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    const auto& g = plan.groups[k];
    const std::string dir = dir_placeholder;
    auto cmd = launch_command(platform, target.mpi_library, g.np, worker_path(platform, target.mpi_library),
                              fmt::format("{}/launch-{}.json", dir, first_launch + static_cast<int>(k)), dir,
                              this_host());
    for (const auto& [key, value] : g.env) cmd.env[key] = value;
    std::vector<std::string> words;
    for (const auto& [key, value] : cmd.env) words.push_back(fmt::format("{}={}", key, shell_quote(value)));
    for (const auto& arg : cmd.argv) words.push_back(shell_quote(arg));
    // Broken between words with " \" in `width`: the lines still paste as the one command.
    out += wrapped_command(fmt::format("  [{}, np={}] ", counted(g.cases.size(), "case"), g.np), words, width,
                           "      ");
  }
  return out;
}

}  // namespace pico
