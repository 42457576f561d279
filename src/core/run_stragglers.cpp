// SPDX-License-Identifier: BSD-3-Clause
#include "core/run_stragglers.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/oversubscription.hpp"
#include "stats/stats.hpp"

namespace pico {
StragglerFindings find_stragglers(const nlohmann::json& report) {
  StragglerFindings f;
  std::set<int> crowded;  // oversubscribed launches
  if (const auto p = report.find("provenance"); p != report.end())
    for (const Oversubscription& o : oversubscribed(*p)) crowded.insert(o.launch);
  std::map<int, std::vector<std::string>> hosts_of;  // launch -> the hosts it ran on
  if (const auto p = report.find("provenance"); p != report.end() && p->contains("launches"))
    for (const auto& l : p->at("launches"))
      for (const auto& h : l.value("hosts", nlohmann::json::array()))
        hosts_of[l.value("launch", -1)].push_back(h.is_object() ? h.value("name", "") : "");
  std::map<std::string, NamedStraggler> by_key;
  std::map<std::string, int> eligible;  // key -> judged cases that could name it
  std::vector<std::string> order;
  for (const CaseResult& r : case_results_of(report)) {
    if (r.rank_timing_off && r.measured()) ++f.unmeasured_cases;
    if (!r.rank_timing || !r.measured()) continue;
    if (crowded.contains(r.launch) || crowded.contains(-1)) {
      ++f.oversubscribed_cases;
      continue;
    }
    ++f.judged_cases;
    // A host where the launch had several: on one host alone, naming it says nothing.
    const std::vector<std::string>& hosts = hosts_of[r.launch];
    const bool by_host = hosts.size() > 1;
    if (by_host)
      for (const std::string& h : std::set<std::string>(hosts.begin(), hosts.end())) ++eligible[h];
    else
      for (int rank = 0; rank < r.c.np; ++rank) ++eligible[fmt::format("rank {}", rank)];
    const RankTimingSummary s = rank_timing_from_json(*r.rank_timing);
    std::map<std::string, StragglerCase> this_case;  // a host counts a case once, by its largest share
    for (const Straggler& st : s.stragglers) {
      const bool named_by_host = by_host && !st.host.empty();
      const std::string key = named_by_host ? st.host : fmt::format("rank {}", st.rank);
      auto [it, fresh] = by_key.try_emplace(key);
      if (fresh) order.push_back(key);
      NamedStraggler& n = it->second;
      if (named_by_host) n.host = st.host;
      n.ranks.insert(st.rank);
      n.kinds.insert(st.kind);
      n.share_low = std::min(n.share_low, st.share.low);
      n.share_high = std::max(n.share_high, st.share.value());
      const StragglerCase sc{.case_id = r.c.case_id, .collective = std::string(name(r.c.collective)),
                             .bytes = r.c.bytes, .algorithm = r.c.algorithm, .np = r.c.np, .rank = st.rank,
                             .kind = st.kind, .share = st.share, .excess_s = st.excess_s};
      if (auto [c, first] = this_case.try_emplace(key, sc); !first && sc.share.calls > c->second.share.calls)
        c->second = sc;
    }
    for (auto& [key, sc] : this_case) by_key.at(key).cases.push_back(std::move(sc));
  }
  for (const std::string& key : order) {
    NamedStraggler n = by_key.at(key);
    std::vector<double> excesses;
    std::int64_t calls = 0, of = 0;
    for (const StragglerCase& c : n.cases) {
      excesses.push_back(c.excess_s);
      calls += c.share.calls;
      of += c.share.of;
    }
    n.excess_s = median_of(excesses);
    n.pooled = wilson_share(calls, of);
    // A case names a key only where it was eligible; a report edited by hand may disagree, so never fewer.
    n.eligible_cases = std::max(eligible[key], static_cast<int>(n.cases.size()));
    n.p_chance = binomial_upper_tail(static_cast<std::int64_t>(n.cases.size()), n.eligible_cases, kChanceCaseShare);
    (n.p_chance <= kRunStragglerAlpha ? f.named : f.within_chance).push_back(std::move(n));
  }
  for (auto* list : {&f.named, &f.within_chance})
    std::stable_sort(list->begin(), list->end(),
                     [](const NamedStraggler& a, const NamedStraggler& b) { return a.cases.size() > b.cases.size(); });
  return f;
}

nlohmann::json to_json(const StragglerFindings& f) {
  if (f.judged_cases == 0 && f.oversubscribed_cases == 0 && f.unmeasured_cases == 0) return nullptr;
  auto entries = [](const std::vector<NamedStraggler>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const NamedStraggler& n : list) {
      nlohmann::json cases = nlohmann::json::array();
      for (const StragglerCase& c : n.cases)
        cases.push_back({{"case_id", c.case_id},
                         {"collective", c.collective},
                         {"bytes", c.bytes},
                         {"algorithm", c.algorithm},
                         {"np", c.np},
                         {"rank", c.rank},
                         {"kind", c.kind},
                         {"share", share_json(c.share)},
                         {"excess_s", c.excess_s}});
      out.push_back({{"host", n.host.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.host)},
                     {"ranks", n.ranks},
                     {"kinds", n.kinds},
                     {"share", share_json(n.pooled)},
                     {"case_share_ci95_low_min", n.share_low},
                     {"case_share_max", n.share_high},
                     {"excess_s", n.excess_s},
                     {"eligible_cases", n.eligible_cases},
                     {"p_chance", n.p_chance},
                     {"cases", std::move(cases)}});
    }
    return out;
  };
  return {{"judged_cases", f.judged_cases},
          {"oversubscribed_cases", f.oversubscribed_cases},
          {"unmeasured_cases", f.unmeasured_cases},
          {"test", {{"chance_case_share", kChanceCaseShare}, {"alpha", kRunStragglerAlpha}}},
          {"named", entries(f.named)},
          {"within_chance", entries(f.within_chance)}};
}

}  // namespace pico
