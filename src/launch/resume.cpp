#include "launch/resume.hpp"

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/jsonl.hpp"

namespace pico {

std::set<std::string> settled_case_ids(const std::string& dir) {
  std::map<std::string, CaseStatus> latest_status;
  for (const auto& line : read_json_lines(dir + "/cases.jsonl")) {
    const CaseResult r = case_result_from_json(line);
    latest_status[run_key(r.c)] = r.status;
  }
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

int launches_in(const std::string& dir) {
  int k = 0;
  while (std::filesystem::exists(fmt::format("{}/launch-{}.json", dir, k))) ++k;
  return k;
}

namespace {

std::set<int> logged_launches(const nlohmann::json& launch_log) {
  std::set<int> logged;
  for (const auto& entry : launch_log) logged.insert(entry.at("launch").get<int>());
  return logged;
}

std::map<int, int> records_per_launch(const std::string& dir) {
  std::map<int, int> records;
  for (const auto& line : read_json_lines(dir + "/cases.jsonl")) ++records[line.value("launch", -1)];
  return records;
}

nlohmann::json dead_launch_entry(const std::string& dir, int launch, int cases_done) {
  std::ifstream in(fmt::format("{}/launch-{}.json", dir, launch));
  const nlohmann::json request = nlohmann::json::parse(in);
  return {{"launch", launch},
          {"np", request.at("np")},
          {"command", nlohmann::json::array()},
          {"exit", "unknown: the pico that started this launch died before recording its end"},
          {"log", fmt::format("launch-{}.log", launch)},
          {"cases_requested", request.at("cases").size()},
          {"cases_done", cases_done},
          {"wall_s", 0.0}};
}

}  // namespace

nlohmann::json dead_launch_entries(const std::string& dir, const nlohmann::json& launch_log) {
  const std::set<int> logged = logged_launches(launch_log);
  std::map<int, int> records = records_per_launch(dir);
  nlohmann::json entries = nlohmann::json::array();
  for (int k = 0; k < launches_in(dir); ++k)
    if (!logged.contains(k)) entries.push_back(dead_launch_entry(dir, k, records[k]));
  return entries;
}

}  // namespace pico
