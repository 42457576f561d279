// SPDX-License-Identifier: BSD-3-Clause
#include "launch/slurm_job.hpp"

#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "launch/executor.hpp"
#include "launch/progress.hpp"
#include "support/command_output.hpp"
#include "support/external_error.hpp"
#include "support/interrupt.hpp"

namespace pico {
namespace {

// Slurm's words for a job that will run nothing more.
const std::set<std::string> kEndedStates{"COMPLETED", "CANCELLED",     "FAILED",   "TIMEOUT",   "NODE_FAIL",
                                         "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "SPECIAL_EXIT"};

std::string field(const std::string& text, const std::string& key) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex("(^|\\s)" + key + "=(\\S*)"))) return m[2];
  return "";
}

int int_field(const std::string& text, const std::string& key) {
  const std::string v = field(text, key);
  try {
    return v.empty() ? 0 : std::stoi(v);
  } catch (const std::exception&) {
    return 0;
  }
}

// sacct -P: State|NodeList|NNodes|NCPUS|Partition|Timelimit|ExitCode|Start|End
SlurmJobInfo parse_sacct(const std::string& job_id, const std::string& text) {
  SlurmJobInfo info;
  info.job_id = job_id;
  std::vector<std::string> parts;
  std::string line = text.substr(0, text.find('\n'));
  for (std::size_t start = 0;;) {
    const auto bar = line.find('|', start);
    parts.push_back(line.substr(start, bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  if (parts.size() < 9 || parts[0].empty()) return info;
  info.known = true;
  info.state = parts[0].substr(0, parts[0].find(' '));  // "CANCELLED by 0"
  info.node_list = parts[1];
  info.nodes = std::atoi(parts[2].c_str());
  info.cpus = std::atoi(parts[3].c_str());
  info.partition = parts[4];
  info.time_limit = parts[5];
  info.exit_code = parts[6];
  info.start_time = parts[7];
  info.end_time = parts[8];
  return info;
}

std::string slurm_hint(const std::string& output) {
  if (output.find("slurm.conf") != std::string::npos || output.find("Unable to contact") != std::string::npos)
    return "\nIs Slurm running and SLURM_CONF set? For this machine's own Slurm: eval \"$(scripts/local-slurm.sh start)\"";
  return "";
}

}  // namespace

bool SlurmJobInfo::ended() const { return !known || kEndedStates.contains(state); }

nlohmann::json SlurmJobInfo::to_json() const {
  return {{"job_id", job_id},         {"state", state},           {"node_list", node_list},
          {"nodes", nodes},           {"cpus", cpus},             {"partition", partition},
          {"time_limit", time_limit}, {"exit_code", exit_code},   {"start_time", start_time},
          {"end_time", end_time},     {"reason", reason}};
}

std::string job_id_from_sbatch(const std::string& output) {
  std::smatch m;
  if (std::regex_search(output, m, std::regex(R"((^|\n)(\d+)(;\S*)?\s*$)"))) return m[2];
  return "";
}

std::string submit_job(const std::string& script_path) {
  const CommandOutput out = run_command({"sbatch", "--parsable", script_path});
  if (!out.started)
    throw ExternalError("sbatch not found: run pico on a Slurm login node, or install slurm-client");
  const std::string id = job_id_from_sbatch(out.output);
  if (!out.exit.ok() || id.empty())
    throw ExternalError(
        fmt::format("sbatch {} failed ({}):\n{}{}", script_path, out.exit.describe(), out.output, slurm_hint(out.output)));
  return id;
}

SlurmJobInfo parse_scontrol_job(const std::string& job_id, const std::string& text) {
  SlurmJobInfo info;
  info.job_id = job_id;
  const std::string state = field(text, "JobState");
  if (state.empty()) return info;
  info.known = true;
  info.state = state;
  info.node_list = field(text, "NodeList");
  if (info.node_list == "(null)") info.node_list.clear();
  info.nodes = int_field(text, "NumNodes");
  info.cpus = int_field(text, "NumCPUs");
  info.partition = field(text, "Partition");
  info.time_limit = field(text, "TimeLimit");
  info.exit_code = field(text, "ExitCode");
  info.start_time = field(text, "StartTime");
  info.end_time = field(text, "EndTime");
  info.reason = field(text, "Reason");
  return info;
}

SlurmJobInfo query_job(const std::string& job_id) {
  const CommandOutput sc = run_command({"scontrol", "show", "job", "-o", job_id}, 30);
  if (sc.exit.ok()) {
    SlurmJobInfo info = parse_scontrol_job(job_id, sc.output);
    if (info.known) return info;
  }
  // scontrol forgets a job MinJobAge after it ends; accounting remembers, where a site keeps it.
  const CommandOutput sa = run_command(
      {"sacct", "-n", "-X", "-P", "-j", job_id, "-o", "State,NodeList,NNodes,NCPUS,Partition,Timelimit,ExitCode,Start,End"},
      30);
  if (sa.exit.ok()) return parse_sacct(job_id, sa.output);
  SlurmJobInfo unknown;
  unknown.job_id = job_id;
  return unknown;
}

SlurmJobInfo follow_job(const std::string& job_id, const std::string& dir, const Plan& plan, int first_launch,
                        bool progress_enabled, double poll_s) {
  std::map<std::string, const Case*> by_id;
  for (const auto& c : plan.cases) by_id[c.case_id] = &c;
  Progress progress(runnable_cases(plan), plan.timing.time_budget_s, progress_enabled);
  // The job may have run already (pico collect): count what is there.
  JsonLinesTail results(dir + "/cases.jsonl", true), starts(dir + "/progress.jsonl", true);
  std::set<std::string> done;
  std::string current = "waiting for the job to start";
  SlurmJobInfo info;
  for (;;) {
    info = query_job(job_id);
    for (const auto& s : starts.read_new())
      if (auto it = by_id.find(s.value("case_id", "")); it != by_id.end()) current = describe_case(*it->second);
    for (const auto& r : results.read_new()) {
      const std::string id = r.value("case_id", "");
      if (r.value("launch", -1) >= first_launch && by_id.contains(id) && done.insert(id).second) progress.advance(1);
    }
    if (info.ended()) break;
    progress.show(fmt::format("job {} {}: {}", job_id, info.state, info.state == "PENDING" ? info.reason : current));
    if (interrupt_requested()) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
  progress.finish();
  return info;
}

}  // namespace pico
