#include "launch/resume.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/jsonl.hpp"

namespace pico {

std::set<std::string> settled_case_ids(const std::string& dir) {
  std::map<std::string, CaseStatus> latest_status;
  for (const auto& line : read_json_lines(dir + "/cases.jsonl")) {
    const CaseResult r = case_result_from_json(line);
    latest_status[r.c.case_id] = r.status;
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
      if (!settled.contains(c.case_id)) left.cases.push_back(c);
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

}  // namespace pico
