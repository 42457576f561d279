// SPDX-License-Identifier: BSD-3-Clause
#include "analysis/reproducibility.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "stats/stats.hpp"
#include "support/json_file.hpp"
#include "support/wrapped_text.hpp"

namespace pico {

namespace {

std::string candidate_of(const Case& c) { return c.backend + ":" + candidate_label(c.algorithm, c.params); }

// One candidate's two halves, or nothing when it cannot be split that way.
struct Halves {
  std::vector<double> a, b;
  bool usable() const { return !a.empty() && !b.empty(); }
};

Halves by_launches(const std::vector<const CaseResult*>& records) {
  Halves h;
  for (const CaseResult* r : records) (r->c.repetition % 2 == 0 ? h.a : h.b).push_back(r->timing->median_s);
  return h;
}

Halves by_rounds(const std::vector<const CaseResult*>& records) {
  Halves h;
  for (const CaseResult* r : records) {
    if (!r->rounds) continue;
    const auto& m = r->rounds->median_s;
    for (std::size_t k = 0; k < m.size(); ++k) (k % 2 == 0 ? h.a : h.b).push_back(m[k]);
  }
  return h;
}

std::size_t fastest(const std::vector<double>& t) {
  return static_cast<std::size_t>(std::min_element(t.begin(), t.end()) - t.begin());
}

}  // namespace

Reproducibility split_half_agreement(const std::vector<CaseResult>& cases, double tolerance) {
  // choice -> candidate -> its measured records
  std::map<std::string, std::map<std::string, std::vector<const CaseResult*>>> choices;
  for (const CaseResult& r : cases)
    if (r.measured()) choices[choice_id(r.c, false)][candidate_of(r.c)].push_back(&r);

  Reproducibility out;
  out.tolerance = tolerance;
  std::set<std::string> splits;
  for (const auto& [key, candidates] : choices) {
    if (candidates.size() < 2) continue;
    for (const char* split : {"launches", "rounds"}) {
      std::vector<double> a, b;
      for (const auto& [label, records] : candidates) {
        const Halves h = split == std::string("launches") ? by_launches(records) : by_rounds(records);
        if (!h.usable()) break;
        a.push_back(median_of(h.a));
        b.push_back(median_of(h.b));
      }
      if (a.size() != candidates.size()) continue;  // some candidate could not be split this way
      ++out.choices;
      const std::size_t best_a = fastest(a), best_b = fastest(b);
      out.same_best += best_a == best_b;
      out.near_best += b[best_a] <= (1 + tolerance) * b[best_b];
      splits.insert(split);
      break;
    }
  }
  out.split = splits.empty() ? "none" : splits.size() == 2 ? "mixed" : *splits.begin();
  return out;
}

nlohmann::json to_json(const Reproducibility& r) {
  return {{"split", r.split},
          {"choices", r.choices},
          {"same_best", r.same_best},
          {"near_best", r.near_best},
          {"tolerance", r.tolerance}};
}

Reproducibility reproducibility_from_json(const nlohmann::json& j) {
  Reproducibility r;
  r.split = json_field_or<std::string>(j, "split", "none");
  r.choices = json_field_or(j, "choices", 0);
  r.same_best = json_field_or(j, "same_best", 0);
  r.near_best = json_field_or(j, "near_best", 0);
  r.tolerance = json_field_or(j, "tolerance", 0.05);
  if (r.choices < 0 || r.same_best < 0 || r.same_best > r.near_best || r.near_best > r.choices)
    throw std::runtime_error(fmt::format("same_best {} <= near_best {} <= choices {} does not hold", r.same_best,
                                         r.near_best, r.choices));
  if (!(r.tolerance > 0 && r.tolerance < 1))
    throw std::runtime_error(fmt::format("tolerance {} is not a fraction between 0 and 1", r.tolerance));
  if (r.split != "none" && r.split != "rounds" && r.split != "launches" && r.split != "mixed")
    throw std::runtime_error(fmt::format("split: unknown value '{}'", r.split));
  return r;
}

std::string describe(const Reproducibility& r) {
  if (r.choices == 0)
    // Said once: the line's own "reproducibility: " names what is not measured.
    return "not measured, since no choice of two or more candidates was measured in two or more rounds "
           "(timing.rounds) or repetitions (repetitions) to split in halves";
  const auto percent = [&](int n) { return 100.0 * n / r.choices; };
  return fmt::format("a second measurement would pick the same best at {:.0f}% of {} sizes (one within {:.0f}% of "
                     "its best at {:.0f}%; split-half over {})",
                     percent(r.same_best), r.choices, r.tolerance * 100, percent(r.near_best),
                     r.split == "mixed" ? "launches and rounds" : r.split);
}

std::string reproducibility_line(const nlohmann::json& report) {
  const auto it = report.find("reproducibility");
  if (it == report.end() || !it->is_object()) return "";
  return wrapped("reproducibility: " + describe(reproducibility_from_json(*it)), kProseWidth, "  ");
}

}  // namespace pico
