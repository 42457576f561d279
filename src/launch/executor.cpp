// SPDX-License-Identifier: BSD-3-Clause
#include "launch/executor.hpp"

#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "config/units.hpp"
#include "core/case_result.hpp"
#include "launch/launcher.hpp"
#include "launch/progress.hpp"
#include "support/elapsed.hpp"
#include "support/file_io.hpp"
#include "support/interrupt.hpp"
#include "support/jsonl.hpp"
#include "support/process.hpp"
#include "support/results_file.hpp"

namespace pico {
namespace {

struct LaunchOutcome {
  ExitStatus exit;
  std::set<std::string> finished;        // case ids with a result line
  std::set<std::string> refused;         // the library refused their run-time selection
  std::optional<std::string> in_flight;  // started, no result
  double in_flight_s = 0;
  bool timed_out = false;
  bool startup_timed_out = false;
  bool interrupted = false;
  bool stopped = false;  // at options.stop_at
  double wall_s = 0;
};

class GroupRunner {
 public:
  GroupRunner(const Plan& plan, const Platform& platform, const PlanTarget& target, const std::string& dir,
              const ExecutorOptions& options, ExecutionLog& log, Progress& progress)
      : plan_(plan), platform_(platform), target_(target), dir_(dir), options_(options), log_(log),
        progress_(progress) {}

  void run(const LaunchGroup& group) {
    std::vector<Case> remaining = group.cases;
    std::vector<Case> refused;
    while (!remaining.empty()) {
      const int launch = log_.launches++;
      LaunchOutcome out = launch_once(launch, group, remaining);
      for (const auto& c : remaining)
        if (out.refused.contains(c.case_id)) refused.push_back(c);
      std::vector<Case> next;
      for (const auto& c : remaining) {
        if (out.finished.contains(c.case_id)) continue;
        if (out.in_flight == c.case_id) {
          record_failure(c, in_flight_reason(out, launch), launch, out.in_flight_s);
          continue;
        }
        next.push_back(c);
      }
      if (out.interrupted || out.stopped) {
        for (const auto& c : next)
          record_failure(c, out.stopped ? "not run: the pilot's time was up" : "not run: pico was interrupted", launch,
                         0);
        next.clear();
      }
      // Without a case in flight the launch itself is broken: relaunching would fail the same way.
      if (!out.in_flight && !next.empty()) {
        const std::string reason = fmt::format("launch {} ended ({}) before this case ran; see launch-{}.log",
                                               launch, out.exit.describe(), launch);
        for (const auto& c : next) record_failure(c, reason, launch, 0);
        next.clear();
      }
      remaining = std::move(next);
    }
    run_fallback(group, std::move(refused));
  }

 private:
  // Cases whose run-time selection the library refused run again, one launch
  // per algorithm, with the selection in the environment before MPI_Init
  // (Open MPI: OMPI_MCA_<variable>=id; MPICH: <variable>=name, which is all its
  // environment takes); the worker still reads the variable back.
  void run_fallback(const LaunchGroup& group, std::vector<Case> refused) {
    if (refused.empty()) return;
    const std::string prefix = catalog_for(target_.mpi_library).env_prefix;
    std::vector<LaunchGroup> groups;
    for (Case c : refused) {
      c.selection.mechanism = "env";
      c.selection.fallback = "MPI_T writing was refused; selected through the environment at launch";
      auto env = group.env;
      env[prefix + c.selection.variable] = c.selection.value;
      for (const auto& [var, value] : c.selection.parameters) env[prefix + var] = value;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const LaunchGroup& g) { return g.env == env; });
      if (it == groups.end()) it = groups.insert(groups.end(), LaunchGroup{group.np, env, {}});
      it->cases.push_back(c);
    }
    for (const auto& g : groups) run(g);
  }

  LaunchOutcome launch_once(int launch, const LaunchGroup& group, const std::vector<Case>& cases) {
    const int np = group.np;
    const std::string launch_file = fmt::format("{}/launch-{}.json", dir_, launch);
    const std::string log_file = fmt::format("{}/launch-{}.log", dir_, launch);
    write_results_file(launch_file,
                    launch_request_to_json(launch_request_for(launch, group, cases, plan_, target_)).dump(1) + "\n");
    LaunchCommand cmd = launch_command(platform_, target_.mpi_library, np, worker_path(platform_, target_.mpi_library),
                                       launch_file, dir_, this_host());
    // The plan's variables win over the platform's: they are what makes the selection true.
    for (const auto& [k, v] : group.env) cmd.env[k] = v;
    log_.launch_commands.push_back(cmd.argv);

    std::map<std::string, const Case*> by_id;
    for (const auto& c : cases) by_id[c.case_id] = &c;
    JsonLinesTail results(dir_ + "/cases.jsonl"), starts(dir_ + "/progress.jsonl");
    LaunchOutcome out;
    LaunchTimes times;
    const auto launch_start = Clock::now();
    Clock::time_point case_start = launch_start;
    bool any_started = false;

    ChildProcess child(cmd.argv, cmd.env, log_file);
    auto consume = [&] {
      for (const auto& s : starts.read_new()) {
        const std::string id = s.value("case_id", "");
        if (!by_id.contains(id)) continue;
        out.in_flight = id;
        case_start = Clock::now();
        if (!any_started) times.first_start_s = seconds_since(launch_start);
        any_started = true;
        const auto round = s.find("race_round");
        progress_.show(describe_case(*by_id[id]) +
                       (round != s.end() ? fmt::format(" (round {})", round->get<int>()) : std::string()));
      }
      for (const auto& line : results.read_new()) {
        const CaseResult r = case_result_from_json(line);
        const std::string& id = r.c.case_id;
        if (by_id.contains(id)) times.results_s.emplace_back(id, seconds_since(launch_start));
        if (!by_id.contains(id) || !out.finished.insert(id).second) continue;
        if (out.in_flight == id) out.in_flight.reset();
        case_start = Clock::now();
        if (r.selection && r.selection->refused)
          out.refused.insert(id);  // it will run again: count it then
        else
          progress_.advance(1);
      }
    };
    for (;;) {
      consume();
      if (auto status = child.poll()) {
        out.exit = *status;
        break;
      }
      if (out.in_flight && seconds_since(case_start) > plan_.timing.case_timeout_s) {
        out.timed_out = true;
        out.exit = child.terminate(5.0);
        break;
      }
      if (out.finished.size() == cases.size() && seconds_since(case_start) > options_.finalize_timeout_s) {
        out.exit = child.terminate(5.0);  // every case is recorded; only MPI_Finalize or mpirun hangs
        break;
      }
      if (interrupt_requested()) {
        out.interrupted = true;
        out.exit = child.terminate(5.0);
        break;
      }
      if (options_.stop_at && Clock::now() >= *options_.stop_at) {
        out.stopped = true;
        out.exit = child.terminate(5.0);
        break;
      }
      if (!any_started && seconds_since(launch_start) > options_.startup_timeout_s) {
        out.startup_timed_out = true;
        out.exit = child.terminate(5.0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    consume();
    out.in_flight_s = out.in_flight ? seconds_since(case_start) : 0;
    out.wall_s = seconds_since(launch_start);
    times.wall_s = out.wall_s;
    times.stopped = out.stopped;
    log_.times.push_back(std::move(times));
    log_.launch_log.push_back({{"launch", launch},
                               {"np", np},
                               {"command", cmd.argv},
                               {"exit", out.exit.describe()},
                               {"log", fmt::format("launch-{}.log", launch)},
                               {"cases_requested", cases.size()},
                               {"cases_done", out.finished.size()},
                               {"wall_s", out.wall_s}});
    return out;
  }

  std::string in_flight_reason(const LaunchOutcome& out, int launch) const {
    if (out.interrupted) return "interrupted: pico received a termination signal during this case";
    if (out.stopped) return "stopped: the pilot's time was up during this case";
    if (out.timed_out)
      return fmt::format("timeout: the case ran longer than case_timeout {}s and was killed", plan_.timing.case_timeout_s);
    const std::string detail = crash_detail_from_log(read_results_file(fmt::format("{}/launch-{}.log", dir_, launch)).value_or(""));
    return fmt::format("crash: the worker died during this case ({}{}); see launch-{}.log",
                       detail.empty() ? "" : detail + ", ", "launcher " + out.exit.describe(), launch);
  }

  void record_failure(const Case& c, const std::string& reason, int launch, double elapsed_s) {
    JsonLinesFile(dir_ + "/cases.jsonl").append(to_json(unmeasured_result(c, CaseStatus::failed, reason, launch, elapsed_s)));
    progress_.advance(1);
  }

  const Plan& plan_;
  const Platform& platform_;
  const PlanTarget& target_;
  const std::string& dir_;
  const ExecutorOptions& options_;
  ExecutionLog& log_;
  Progress& progress_;
};

}  // namespace

std::string crash_detail_from_log(const std::string& log_text) {
  std::smatch m;
  if (std::regex_search(log_text, m, std::regex(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+) \(([^)]*)\))")))
    return fmt::format("rank {} exited on signal {} ({})", m[1].str(), m[2].str(), m[3].str());
  if (std::regex_search(log_text, m, std::regex(R"(MPI_ABORT was invoked on rank (\d+))")))
    return fmt::format("rank {} called MPI_Abort", m[1].str());
  // srun: "srun: error: node1: task 1: Segmentation fault (core dumped)"
  if (std::regex_search(log_text, m, std::regex(R"(srun: error: \S+: tasks? ([0-9,-]+): ([A-Z][^\n(]*[a-z]))")))
    return fmt::format("rank {}: {}", m[1].str(), m[2].str());
  return "";
}

ExecutionLog execute_plan(const Plan& plan, const Platform& platform, const PlanTarget& target, const std::string& dir,
                          const ExecutorOptions& options) {
  ExecutionLog log;
  log.launches = options.first_launch;
  // Skipped cases take no time: the count and the time left are of the cases that run.
  Progress progress(runnable_cases(plan), plan.timing.time_budget_s, options.progress);
  {
    JsonLinesFile cases(dir + "/cases.jsonl");
    for (const auto& s : plan.skipped) cases.append(to_json(unmeasured_result(s.c, CaseStatus::skipped, s.reason, -1, 0)));
  }
  for (const auto& group : plan.groups) {
    if (interrupt_requested()) {
      for (const auto& c : group.cases)
        JsonLinesFile(dir + "/cases.jsonl")
            .append(to_json(unmeasured_result(c, CaseStatus::failed, "not run: pico was interrupted", -1, 0)));
      continue;
    }
    GroupRunner(plan, platform, target, dir, options, log, progress).run(group);
  }
  progress.finish();
  return log;
}

}  // namespace pico
