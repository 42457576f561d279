// SPDX-License-Identifier: BSD-3-Clause
#include "analysis/guidelines_check.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/guidelines.hpp"
#include "core/observation.hpp"
#include "stats/bootstrap.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

// One choice's measured records: the default's and each mock-up's.
struct ChoiceRecords {
  std::vector<const CaseResult*> defaults;
  std::map<std::string, std::vector<const CaseResult*>> mock_ups;  // by guideline algorithm
};

std::vector<Observation> observations(const std::vector<const CaseResult*>& records) {
  std::vector<Observation> out;
  for (const CaseResult* r : records) out.push_back(observation_of(*r, "report"));
  return out;
}

std::vector<std::string> case_ids(const std::vector<const CaseResult*>& records) {
  std::vector<std::string> ids;
  for (const CaseResult* r : records)
    if (std::find(ids.begin(), ids.end(), r->c.case_id) == ids.end()) ids.push_back(r->c.case_id);
  return ids;
}

std::string_view verdict_of(const MeasuredSpeedup& s) {
  const std::string_view v = s.verdict();  // of the mock-up against the default
  return v == "faster" ? "violated" : v == "slower" ? "holds" : "undecided";
}

// "Open MPI 4.1.4's default bcast at 64KiB (float32) on 4 ranks is 1.900x slower than its own scatter +
// allgather, [1.700, 2.100]"
std::string sentence(const GuidelineCheck& g, const std::string& library) {
  const Case& c = g.example->c;
  const Guideline& mock = *find_guideline(g.guideline);
  const std::string what = fmt::format("{}'s default {} at {} ({}) on {} ranks", library, name(c.collective),
                                       size_text(c.bytes), name(c.dtype), c.np);
  const std::string interval = speedup_interval_text(g.ratio);
  if (g.verdict == "violated")
    return fmt::format("{} is {} slower than its own {}, {}", what, speedup_estimate_text(g.ratio), mock.composition,
                       interval);
  if (g.verdict == "holds")
    return fmt::format("{} is faster than its own {}: {} of its time, {}", what, mock.composition,
                       speedup_estimate_text(g.ratio), interval);
  return fmt::format("{} cannot be told from its own {}: {} of its time, {}", what, mock.composition,
                     speedup_estimate_text(g.ratio), interval);
}

int verdict_rank(const std::string& v) { return v == "violated" ? 0 : v == "undecided" ? 1 : 2; }

}  // namespace

std::string mpi_library_text(const std::string& library, const std::string& version) {
  const std::string shown = library == "openmpi" ? "Open MPI" : library == "mpich" ? "MPICH" : "";
  if (shown.empty()) return "the MPI library";
  return version.empty() ? shown : fmt::format("{} {}", shown, version);
}

GuidelineReport check_guidelines(const std::vector<CaseResult>& cases, const std::string& library,
                                 const std::string& version) {
  GuidelineReport out;
  std::map<std::string, ChoiceRecords> choices;  // by choice_id: same collective, size, np, dtype, op, options
  for (const CaseResult& r : cases) {
    const bool mock_up = is_guideline(r.c.algorithm);
    if (mock_up && r.status == CaseStatus::skipped) ++out.skipped;
    if (mock_up && r.status == CaseStatus::failed)
      out.unchecked.push_back(fmt::format("case {} ({}): failed: {}", r.c.case_id, r.c.algorithm, r.reason));
    if (!r.measured() || (!mock_up && r.c.algorithm != "default")) continue;
    ChoiceRecords& choice = choices[choice_id(r.c, true)];
    if (mock_up) choice.mock_ups[r.c.algorithm].push_back(&r);
    else choice.defaults.push_back(&r);
  }
  const std::string lib = mpi_library_text(library, version);
  for (const auto& [id, choice] : choices) {
    for (const auto& [guideline, records] : choice.mock_ups) {
      if (choice.defaults.empty()) {
        for (const std::string& case_id : case_ids(records))
          out.unchecked.push_back(fmt::format("case {} ({}): the library's default was not measured at this size, "
                                              "np and datatype", case_id, guideline));
        continue;
      }
      GuidelineCheck g;
      g.example = choice.defaults.front();
      g.guideline = guideline;
      g.default_cases = case_ids(choice.defaults);
      g.mock_up_cases = case_ids(records);
      g.ratio = speedup_of(observations(choice.defaults), observations(records), Objective::median);
      g.verdict = std::string(verdict_of(g.ratio));
      g.text = sentence(g, lib);
      out.checks.push_back(std::move(g));
    }
  }
  std::stable_sort(out.checks.begin(), out.checks.end(), [](const GuidelineCheck& a, const GuidelineCheck& b) {
    const Case &x = a.example->c, &y = b.example->c;
    if (verdict_rank(a.verdict) != verdict_rank(b.verdict)) return verdict_rank(a.verdict) < verdict_rank(b.verdict);
    if (a.verdict == "violated" && a.ratio.estimate != b.ratio.estimate) return a.ratio.estimate > b.ratio.estimate;
    return std::tie(x.collective, a.guideline, x.np, x.dtype, x.bytes) <
           std::tie(y.collective, b.guideline, y.np, y.dtype, y.bytes);
  });
  return out;
}

nlohmann::json guidelines_to_json(const GuidelineReport& g) {
  if (g.checks.empty() && g.unchecked.empty() && g.skipped == 0) return nullptr;
  nlohmann::json checks = nlohmann::json::array();
  int violated = 0;
  for (const GuidelineCheck& k : g.checks) {
    const Case& c = k.example->c;
    const Guideline& mock = *find_guideline(k.guideline);
    violated += k.verdict == "violated" ? 1 : 0;
    checks.push_back({{"collective", name(c.collective)},
                      {"guideline", k.guideline},
                      {"composition", mock.composition},
                      {"sizes", mock.sizes},
                      {"np", c.np},
                      {"dtype", name(c.dtype)},
                      {"op", name(c.op)},
                      {"count", c.count},
                      {"bytes", c.bytes},
                      {"default_cases", k.default_cases},
                      {"mock_up_cases", k.mock_up_cases},
                      {"ratio", k.ratio.estimate},
                      {"ratio_low", k.ratio.has_interval() ? nlohmann::json(k.ratio.low) : nlohmann::json(nullptr)},
                      {"ratio_high", k.ratio.has_interval() ? nlohmann::json(k.ratio.high) : nlohmann::json(nullptr)},
                      {"method", k.ratio.method},
                      {"verdict", k.verdict},
                      {"text", k.text}});
  }
  return {{"rule", kGuidelineRule},
          {"checked", g.checks.size()},
          {"violated", violated},
          {"checks", checks},
          {"unchecked", g.unchecked},
          {"skipped", g.skipped}};
}

}  // namespace pico
