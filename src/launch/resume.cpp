// SPDX-License-Identifier: BSD-3-Clause
#include "launch/resume.hpp"

#include <climits>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "config/env_names.hpp"
#include "core/case_result.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/results_file.hpp"

namespace pico {

std::set<std::string> settled_case_ids(const std::string& dir) {
  std::map<std::string, CaseStatus> latest_status;
  reading_file(dir + "/cases.jsonl", [&] {
    for (const auto& line : read_json_lines(dir + "/cases.jsonl")) {
      const CaseResult r = case_result_from_json(line);
      latest_status[run_key(r.c)] = r.status;
    }
  });
  std::set<std::string> settled;
  for (const auto& [id, status] : latest_status)
    if (status == CaseStatus::ok || status == CaseStatus::skipped) settled.insert(id);
  return settled;
}

Plan remaining_plan(const Plan& plan, const std::set<std::string>& settled) {
  Plan rest;
  rest.timing = plan.timing;
  rest.instrumentation = plan.instrumentation;
  rest.validation = plan.validation;
  for (const auto& group : plan.groups) {
    LaunchGroup left{group.np, group.env, {}};
    for (const auto& c : group.cases)
      if (!settled.contains(run_key(c))) left.cases.push_back(c);
    if (left.cases.empty()) continue;
    rest.cases.insert(rest.cases.end(), left.cases.begin(), left.cases.end());
    rest.groups.push_back(std::move(left));
  }
  return rest;
}

namespace {

constexpr const char* kResumeHint =
    "a resume takes the cases left to run from a results directory, not what starts them: start a new run "
    "with your own platform file (pico run EXPERIMENT -p PLATFORM)";

[[noreturn]] void refuse_resumed(const std::string& file, const std::string& what) {
  throw InputError(file, what + ": a resume does not set the loader's variables from a results directory",
                   kResumeHint);
}

}  // namespace

void check_resumed_env(const std::map<std::string, std::string>& env, const std::string& file) {
  for (const auto& [name, value] : env) {
    if (const auto problem = env_name_problem(name)) throw InputError(file, *problem, kEnvNameHint);
    if (const auto problem = env_value_problem(name, value)) throw InputError(file, *problem, kEnvValueHint);
    if (is_loader_variable(name)) refuse_resumed(file, fmt::format("it sets {}", name));
    if (mentions_loader_variable(value)) refuse_resumed(file, fmt::format("{} names a loader variable (LD_...)", name));
  }
}

void check_resumed_platform(const std::string& dir, const Platform& platform) {
  const std::string platform_file = (std::filesystem::path(dir) / "platform.yaml").string();
  check_resumed_env(platform.env, platform_file);
  std::vector<std::string> argv = platform.launcher.wrapper;
  argv.push_back(platform.launcher.command);
  argv.insert(argv.end(), platform.launcher.args.begin(), platform.launcher.args.end());
  argv.push_back(platform.worker);
  // A Slurm job script also carries these, as written.
  for (const auto* lines : {&platform.slurm.extra_sbatch, &platform.slurm.modules, &platform.slurm.setup})
    argv.insert(argv.end(), lines->begin(), lines->end());
  for (const auto& arg : argv)
    if (mentions_loader_variable(arg))
      refuse_resumed(platform_file, fmt::format("the launcher argument '{}' names a loader variable (LD_...)", arg));
}

void check_resumed_launches(const std::string& dir, const Platform& platform, const Plan& plan,
                            const std::map<std::string, std::string>& profile_env) {
  check_resumed_platform(dir, platform);
  for (const auto& group : plan.groups) check_resumed_env(group.env, (std::filesystem::path(dir) / "plan.json").string());
  check_resumed_env(profile_env, (std::filesystem::path(dir) / "run.json").string());
}

int launches_in(const std::string& dir) {
  int k = 0;
  while (std::filesystem::exists(fmt::format("{}/launch-{}.json", dir, k))) ++k;
  return k;
}

namespace {

std::set<int> logged_launches(const std::string& dir, const nlohmann::json& launch_log) {
  std::set<int> logged;
  reading_file(dir + "/run.json", [&] {
    for (const auto& entry : launch_log) logged.insert(static_cast<int>(json_int(entry.at("launch"), -1, INT_MAX)));
  });
  return logged;
}

std::map<int, int> records_per_launch(const std::string& dir) {
  std::map<int, int> records;
  for (const auto& line : read_json_lines(dir + "/cases.jsonl")) ++records[line.value("launch", -1)];
  return records;
}

// The launch record as pico wrote it, or nullopt when it is empty or cut
// short: pico writes it whole before it starts the launch, so a torn one
// (the disk filled up while it was written) means the launch never started.
std::optional<nlohmann::json> launch_record(const std::string& path) {
  const std::optional<std::string> text = read_results_file(path);
  if (!text) return std::nullopt;
  try {
    return parse_json_text(*text, path, "");
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::optional<nlohmann::json> dead_launch_entry(const std::string& dir, int launch, int cases_done) {
  const std::string path = fmt::format("{}/launch-{}.json", dir, launch);
  const std::optional<nlohmann::json> request = launch_record(path);
  if (!request) return std::nullopt;
  return reading_file(path, [&]() -> nlohmann::json {
    return {{"launch", launch},
            {"np", json_int(request->at("np"), 1, INT_MAX)},
            {"command", nlohmann::json::array()},
            {"exit", "unknown: the pico that started this launch died before recording its end"},
            {"log", fmt::format("launch-{}.log", launch)},
            {"cases_requested", request->at("cases").size()},
            {"cases_done", cases_done},
            {"wall_s", 0.0}};
  });
}

}  // namespace

nlohmann::json dead_launch_entries(const std::string& dir, const nlohmann::json& launch_log) {
  const std::set<int> logged = logged_launches(dir, launch_log);
  std::map<int, int> records = records_per_launch(dir);
  nlohmann::json entries = nlohmann::json::array();
  for (int k = 0; k < launches_in(dir); ++k)
    if (!logged.contains(k))
      if (auto entry = dead_launch_entry(dir, k, records[k])) entries.push_back(std::move(*entry));
  return entries;
}

}  // namespace pico
