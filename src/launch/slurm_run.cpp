// SPDX-License-Identifier: BSD-3-Clause
#include "launch/slurm_run.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "core/case_result.hpp"
#include "instrumentation/provenance.hpp"
#include "launch/executor.hpp"
#include "launch/results_lock.hpp"
#include "launch/run_record.hpp"
#include "launch/slurm_job.hpp"
#include "launch/slurm_script.hpp"
#include "support/file_io.hpp"
#include "support/interrupt.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/process.hpp"
#include "support/results_file.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

nlohmann::json read_json_file(const fs::path& p, nlohmann::json fallback) {
  return read_results_json(p.string(), "").value_or(std::move(fallback));
}

nlohmann::json read_jobs(const std::string& dir) {
  const std::string path = (fs::path(dir) / "slurm.json").string();
  nlohmann::json jobs = read_json_file(path, {{"jobs", nlohmann::json::array()}});
  reading_file(path, [&] {
    if (!jobs.at("jobs").is_array()) throw std::runtime_error("\"jobs\" is not a list");
  });
  return jobs;
}

std::string read_text(const fs::path& p) { return read_results_file(p.string()).value_or(""); }

// Why a case of a launch has no result, from the step's record and the job's end.
std::string unfinished_reason(const std::string& dir, int launch, bool in_flight, const nlohmann::json* step,
                              const SlurmJobInfo& job) {
  const std::string resume = fmt::format("`pico run --resume {}` runs it again", dir);
  const std::string job_end = fmt::format("the Slurm job {} ended {}", job.job_id, job.state);
  const bool stopped = step != nullptr && !step->value("stopped", std::string{}).empty();
  if (step == nullptr || stopped || job.state == "CANCELLED" || job.state == "TIMEOUT") {
    const std::string how = stopped ? step->value("stopped", "") : "";
    const std::string why = how == "time_limit"  ? fmt::format("the Slurm job {} was stopped before its time limit", job.job_id)
                            : how == "cancelled" ? fmt::format("the Slurm job {} was cancelled", job.job_id)
                                                 : job_end;
    return in_flight ? fmt::format("interrupted: {} during this case; {}", why, resume)
                     : fmt::format("not run: {} before this case; {}", why, resume);
  }
  const int code = step->value("exit_code", -1);
  if (in_flight) {
    const std::string detail = crash_detail_from_log(read_text(fs::path(dir) / fmt::format("launch-{}.log", launch)));
    return fmt::format("crash: the worker died during this case ({}job step exit code {}); see launch-{}.log",
                       detail.empty() ? "" : detail + ", ", code, launch);
  }
  return fmt::format("not run: job step {} ended (exit code {}) before this case; see launch-{}.log; {}", launch,
                     code, launch, resume);
}

// Appends a failed record for every case of the job's launches that has none
// from that launch, and returns the launches' log entries for run.json.
nlohmann::json record_unfinished(const std::string& dir, const nlohmann::json& job_entry, const SlurmJobInfo& job) {
  std::set<std::pair<std::string, int>> recorded;
  reading_file(dir + "/cases.jsonl", [&] {
    for (const auto& line : read_json_lines(dir + "/cases.jsonl")) {
      const CaseResult r = case_result_from_json(line);
      recorded.insert({r.c.case_id, r.launch});
    }
  });
  std::map<int, std::string> last_started;  // per launch, the case that started last
  for (const auto& s : read_json_lines(dir + "/progress.jsonl")) last_started[s.value("launch", -1)] = s.value("case_id", "");
  std::map<int, nlohmann::json> steps;
  for (const auto& s : read_json_lines(dir + "/steps.jsonl")) steps[s.value("launch", -1)] = s;

  nlohmann::json log = nlohmann::json::array();
  JsonLinesFile cases(dir + "/cases.jsonl");
  for (const auto& launch_json : job_entry.at("launches")) {
    const int launch = launch_json.get<int>();
    const std::string launch_file = (fs::path(dir) / fmt::format("launch-{}.json", launch)).string();
    const LaunchRequest request =
        reading_file(launch_file, [&] { return launch_request_from_json(read_json_file(launch_file, nullptr)); });
    const nlohmann::json* step = steps.contains(launch) ? &steps[launch] : nullptr;
    int done = 0;
    for (const auto& c : request.cases) {
      if (recorded.contains({c.case_id, launch})) {
        ++done;
        continue;
      }
      const bool in_flight = last_started.contains(launch) && last_started[launch] == c.case_id;
      cases.append(to_json(
          unmeasured_result(c, CaseStatus::failed, unfinished_reason(dir, launch, in_flight, step, job), launch, 0)));
    }
    const double wall_s = step ? std::max(0.0, step->value("ended", 0.0) - step->value("started", 0.0)) : 0.0;
    std::string exit = "not started";
    if (step && step->value("exit_code", -1) >= 0) exit = ExitStatus{step->value("exit_code", 0), 0}.describe();
    log.push_back({{"launch", launch},
                   {"np", request.np},
                   {"command", job_entry.at("commands").at(log.size())},
                   {"exit", exit},
                   {"log", fmt::format("launch-{}.log", launch)},
                   {"cases_requested", request.cases.size()},
                   {"cases_done", done},
                   {"wall_s", wall_s}});
  }
  return log;
}

// Follows and collects DIR's last job; the caller holds DIR's lock.
RunResult collect_job(const std::string& dir, bool progress, bool wait) {
  nlohmann::json jobs = read_jobs(dir);
  if (jobs.at("jobs").empty() || jobs.at("jobs").back().contains("final")) return report_run(dir);
  nlohmann::json& last = jobs.at("jobs").back();
  const std::string job_id = last.at("job_id");
  const Plan plan = read_plan(dir);
  const int first_launch = last.at("launches").empty() ? 0 : last.at("launches").front().get<int>();
  install_interrupt_handlers();
  const SlurmJobInfo info = wait ? follow_job(job_id, dir, plan, first_launch, progress) : query_job(job_id);
  if (!info.ended()) {
    fmt::print(stderr, "Slurm job {} is {}; `pico collect {}` collects it when it ends\n", job_id, info.state, dir);
    RunResult result;
    result.dir = dir;
    result.job_id = job_id;
    result.job_state = info.state;
    return result;
  }
  const nlohmann::json launch_log = record_unfinished(dir, last, info);
  last["final"] = info.to_json();
  write_json_atomically((fs::path(dir) / "slurm.json").string(), jobs);

  nlohmann::json run = read_run_record(dir);
  double wall_s = 0;
  for (const auto& entry : launch_log) wall_s += entry.at("wall_s").get<double>();
  append_launches(run, launch_log, nlohmann::json::array(), run.at("run").at("launches").get<int>(), wall_s);
  nlohmann::json slurm = info.to_json();
  slurm["jobs"] = nlohmann::json::array();
  for (const auto& j : jobs.at("jobs")) slurm["jobs"].push_back(j.at("job_id"));
  slurm["script"] = last.at("script");
  run["slurm"] = slurm;
  bool stopped = info.state == "CANCELLED" || info.state == "TIMEOUT";
  for (const auto& s : read_json_lines(dir + "/steps.jsonl"))
    if (!s.value("stopped", std::string{}).empty()) stopped = true;
  run["run"]["interrupted"] = stopped;
  write_run_record(dir, run);
  RunResult result = report_run(dir);
  result.job_id = job_id;
  result.job_state = info.state;
  return result;
}

}  // namespace

std::string slurm_job_name(const Platform& platform, const std::string& experiment_name) {
  if (!platform.slurm.job_name.empty()) return platform.slurm.job_name;
  return "pico-" + (experiment_name.empty() ? std::string{"run"} : experiment_name);
}

bool slurm_job_uncollected(const std::string& dir) {
  const auto jobs = read_jobs(dir).at("jobs");
  return !jobs.empty() && !jobs.back().contains("final");
}

RunResult run_on_slurm(const SlurmRun& in, bool progress, bool wait) {
  const std::string dir = fs::absolute(in.dir).lexically_normal().string();
  const SlurmJobScript job = slurm_job_script(in.plan, in.platform, in.target.mpi_library,
                                              slurm_job_name(in.platform, in.experiment_name), dir, in.first_launch);
  nlohmann::json launches = nlohmann::json::array(), commands = nlohmann::json::array();
  for (std::size_t k = 0; k < job.steps.size(); ++k) {
    const auto& step = job.steps[k];
    const auto& group = in.plan.groups[k];
    const LaunchRequest request = launch_request_for(step.launch, group, group.cases, in.plan, in.target);
    write_results_file((fs::path(dir) / fmt::format("launch-{}.json", step.launch)).string(),
                    launch_request_to_json(request).dump(1) + "\n");
    launches.push_back(step.launch);
    commands.push_back(step.argv);
  }
  const std::string script_name = in.first_launch == 0 ? "job.sbatch" : fmt::format("job-{}.sbatch", in.first_launch);
  const fs::path script = fs::path(dir) / script_name;
  write_results_file(script.string(), sbatch_script_text(job, in.platform));

  // Cases the plan skipped never reach the job: recorded now, as execute_plan does on this host.
  {
    JsonLinesFile cases(dir + "/cases.jsonl");
    for (const auto& s : in.plan.skipped)
      cases.append(to_json(unmeasured_result(s.c, CaseStatus::skipped, s.reason, -1, 0)));
  }
  const std::string job_id = submit_job(script.string());
  nlohmann::json jobs = read_jobs(dir);
  jobs.at("jobs").push_back({{"job_id", job_id},
                             {"script", script_name},
                             {"submitted_utc", utc_timestamp_iso()},
                             {"launches", launches},
                             {"commands", commands}});
  write_json_atomically((fs::path(dir) / "slurm.json").string(), jobs);
  nlohmann::json run = in.run;
  append_launches(run, nlohmann::json::array(), commands, in.first_launch + static_cast<int>(job.steps.size()), 0);
  write_run_record(dir, run);
  fmt::print(stderr, "submitted Slurm job {} ({})\n", job_id, script.string());
  if (!wait) {
    RunResult result;
    result.dir = in.dir;
    result.job_id = job_id;
    result.job_state = "SUBMITTED";
    return result;
  }
  return collect_job(in.dir, progress, true);
}

RunResult collect_run(const std::string& dir, bool progress, bool wait) {
  const ResultsDirLock lock(dir);
  check_results_dir(dir);
  return collect_job(dir, progress, wait);
}

}  // namespace pico
