#include "plan/plan.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "config/units.hpp"

namespace pico {
namespace {

// The element counts a case list expands to for one dtype: from `counts`
// directly, or from `sizes` (bytes per rank block) rounded down to whole
// elements. A size below one element yields count 0 with a reason.
struct CountChoice {
  std::uint64_t count;
  std::string skip_reason;
};

std::vector<CountChoice> counts_for(const Experiment& e, Dtype dtype) {
  std::vector<CountChoice> out;
  if (!e.counts.empty()) {
    for (auto n : e.counts) out.push_back({n, ""});
    return out;
  }
  const std::size_t element = dtype_size(dtype);
  for (auto bytes : e.sizes) {
    if (bytes < element)
      out.push_back({0, fmt::format("size {} is smaller than one {} element", format_size(bytes), name(dtype))});
    else
      out.push_back({bytes / element, ""});
  }
  return out;
}

struct PlanBuilder {
  const Experiment& e;
  Plan plan;
  std::set<std::string> seen;
  std::map<int, std::size_t> group_of_np;

  void add(Case c, const std::string& skip_reason) {
    c.case_id = compute_case_id(c);
    if (!seen.insert(c.case_id).second) return;  // two sizes that round to the same count
    c.index = static_cast<int>(plan.cases.size());
    plan.cases.push_back(c);
    if (!skip_reason.empty()) {
      plan.skipped.push_back({c, skip_reason});
      return;
    }
    auto [it, inserted] = group_of_np.try_emplace(c.np, plan.groups.size());
    if (inserted) plan.groups.push_back(LaunchGroup{c.np, {}});
    plan.groups[it->second].cases.push_back(c);
  }

  void add_collective(Case base, Collective coll) {
    base.collective = coll;
    if (!has_payload(coll)) {
      base.dtype = Dtype::none;
      base.op = Op::none;
      base.count = 0;
      base.bytes = 0;
      base.in_place = false;
      add(base, "");
      return;
    }
    const std::vector<Op> no_op{Op::none};
    for (Dtype dtype : e.dtypes) {
      base.dtype = dtype;
      for (Op op : has_op(coll) ? e.ops : no_op) {
        base.op = op;
        for (bool in_place : e.in_place) {
          std::string in_place_reason;
          if (in_place && !supports_in_place(coll)) {
            if (std::find(e.in_place.begin(), e.in_place.end(), false) != e.in_place.end()) continue;
            in_place_reason = fmt::format("MPI defines no in-place form of {}", name(coll));
          }
          base.in_place = in_place;
          for (const auto& choice : counts_for(e, dtype)) {
            base.count = choice.count;
            base.bytes = choice.count * dtype_size(dtype);
            std::string reason = in_place_reason.empty() ? choice.skip_reason : in_place_reason;
            if (reason.empty() && choice.count > static_cast<std::uint64_t>(INT_MAX))
              reason = "count exceeds the MPI int count range";
            add(base, reason);
          }
        }
      }
    }
  }
};

}  // namespace

Plan make_plan(const Experiment& e) {
  PlanBuilder b{e, {}, {}, {}};
  b.plan.timing = e.timing;
  b.plan.validation = e.validation;
  for (int np : e.processes) {
    for (const auto& backend : e.backends) {
      for (const auto& algorithm : backend.algorithms) {
        for (Collective coll : e.collectives) {
          Case base;
          base.backend = backend.library;
          base.algorithm = algorithm;
          base.np = np;
          base.mode = e.timing.mode;
          base.root = 0;
          b.add_collective(base, coll);
        }
      }
    }
  }
  return std::move(b.plan);
}

nlohmann::json timing_to_json(const TimingSpec& t) {
  return {{"mode", name(t.mode)},
          {"warmup", t.warmup},
          {"min_iterations", t.min_iterations},
          {"max_iterations", t.max_iterations},
          {"time_budget_s", t.time_budget_s},
          {"target_ci", t.target_ci},
          {"case_timeout_s", t.case_timeout_s},
          {"keep_samples", t.keep_samples}};
}

TimingSpec timing_from_json(const nlohmann::json& j) {
  TimingSpec t;
  t.mode = parse_timing_mode(j.at("mode").get<std::string>()).value_or(TimingMode::latency);
  t.warmup = j.at("warmup").get<int>();
  t.min_iterations = j.at("min_iterations").get<std::int64_t>();
  t.max_iterations = j.at("max_iterations").get<std::int64_t>();
  t.time_budget_s = j.at("time_budget_s").get<double>();
  t.target_ci = j.at("target_ci").get<double>();
  t.case_timeout_s = j.at("case_timeout_s").get<double>();
  t.keep_samples = j.at("keep_samples").get<bool>();
  return t;
}

nlohmann::json plan_to_json(const Plan& p) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : p.cases) cases.push_back(case_to_json(c));
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : p.skipped) skipped.push_back({{"case_id", s.c.case_id}, {"reason", s.reason}});
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : p.groups) {
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& c : g.cases) ids.push_back(c.case_id);
    groups.push_back({{"np", g.np}, {"cases", ids}});
  }
  return {{"timing", timing_to_json(p.timing)},
          {"validation", p.validation},
          {"cases", cases},
          {"skipped", skipped},
          {"launch_groups", groups}};
}

nlohmann::json launch_request_to_json(const LaunchRequest& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : r.cases) cases.push_back(case_to_json(c));
  return {{"launch", r.launch},
          {"np", r.np},
          {"timing", timing_to_json(r.timing)},
          {"validation", r.validation},
          {"cases", cases}};
}

LaunchRequest launch_request_from_json(const nlohmann::json& j) {
  LaunchRequest r;
  r.launch = j.at("launch").get<int>();
  r.np = j.at("np").get<int>();
  r.timing = timing_from_json(j.at("timing"));
  r.validation = j.at("validation").get<bool>();
  for (const auto& c : j.at("cases")) r.cases.push_back(case_from_json(c));
  return r;
}

}  // namespace pico
