// SPDX-License-Identifier: BSD-3-Clause
#include "core/run_stragglers.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/oversubscription.hpp"
#include "core/stats.hpp"

namespace pico {
namespace {

nlohmann::json share_json(const Share& s) {
  return {{"calls", s.calls}, {"of", s.of}, {"share", s.value()}, {"ci95_low", s.low}, {"ci95_high", s.high}};
}

}  // namespace

StragglerFindings find_stragglers(const nlohmann::json& report) {
  StragglerFindings f;
  std::set<int> crowded;  // oversubscribed launches
  if (const auto p = report.find("provenance"); p != report.end())
    for (const Oversubscription& o : oversubscribed(*p)) crowded.insert(o.launch);
  std::map<int, std::size_t> hosts_of;  // launch -> hosts it ran on
  if (const auto p = report.find("provenance"); p != report.end() && p->contains("launches"))
    for (const auto& l : p->at("launches")) hosts_of[l.value("launch", -1)] = l.value("hosts", nlohmann::json::array()).size();
  std::map<std::string, NamedStraggler> by_key;
  std::vector<std::string> order;
  for (const CaseResult& r : case_results_of(report)) {
    if (r.rank_timing_off && r.measured()) ++f.unmeasured_cases;
    if (!r.rank_timing || !r.measured()) continue;
    if (crowded.contains(r.launch) || crowded.contains(-1)) {
      ++f.oversubscribed_cases;
      continue;
    }
    ++f.judged_cases;
    const RankTimingSummary s = rank_timing_from_json(*r.rank_timing);
    std::map<std::string, StragglerCase> this_case;  // a host counts a case once, by its largest share
    for (const Straggler& st : s.stragglers) {
      // A host where the launch had several: on one host alone, naming it says nothing.
      const bool by_host = !st.host.empty() && hosts_of[r.launch] > 1;
      const std::string key = by_host ? st.host : fmt::format("rank {}", st.rank);
      auto [it, fresh] = by_key.try_emplace(key);
      if (fresh) order.push_back(key);
      NamedStraggler& n = it->second;
      if (by_host) n.host = st.host;
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
    f.named.push_back(std::move(n));
  }
  std::stable_sort(f.named.begin(), f.named.end(),
                   [](const NamedStraggler& a, const NamedStraggler& b) { return a.cases.size() > b.cases.size(); });
  return f;
}

nlohmann::json to_json(const StragglerFindings& f) {
  if (f.judged_cases == 0 && f.oversubscribed_cases == 0 && f.unmeasured_cases == 0) return nullptr;
  nlohmann::json named = nlohmann::json::array();
  for (const NamedStraggler& n : f.named) {
    nlohmann::json cases = nlohmann::json::array();
    for (const StragglerCase& c : n.cases)
      cases.push_back({{"case_id", c.case_id}, {"collective", c.collective}, {"bytes", c.bytes},
                       {"algorithm", c.algorithm}, {"np", c.np}, {"rank", c.rank}, {"kind", c.kind},
                       {"share", share_json(c.share)}, {"excess_s", c.excess_s}});
    named.push_back({{"host", n.host.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.host)},
                     {"ranks", n.ranks},
                     {"kinds", n.kinds},
                     {"share", share_json(n.pooled)},
                     {"case_share_ci95_low_min", n.share_low},
                     {"case_share_max", n.share_high},
                     {"excess_s", n.excess_s},
                     {"cases", std::move(cases)}});
  }
  return {{"judged_cases", f.judged_cases},
          {"oversubscribed_cases", f.oversubscribed_cases},
          {"unmeasured_cases", f.unmeasured_cases},
          {"named", std::move(named)}};
}

}  // namespace pico
