// SPDX-License-Identifier: BSD-3-Clause
#include "reports/stragglers.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/case_result.hpp"
#include "core/oversubscription.hpp"
#include "core/rank_timing.hpp"
#include "core/size_text.hpp"

namespace pico {
namespace {

std::string case_text(const CaseResult& r) {
  return fmt::format("{} {} {}, {} ranks", name(r.c.collective), size_text(r.c.bytes), r.c.algorithm, r.c.np);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

std::string kind_text(const std::string& kind) {
  return kind == kLateArrival ? "arrives late" : "leaves late after arriving on time";
}

std::string duration_text(double s) {
  if (s >= 1e-3) return fmt::format("{:.2f} ms", s * 1e3);
  return fmt::format("{:.1f} us", s * 1e6);
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
  std::map<std::string, std::vector<double>> excesses;
  std::vector<std::string> order;
  for (const CaseResult& r : case_results_of(report)) {
    if (!r.rank_timing || !r.measured()) continue;
    if (crowded.contains(r.launch) || crowded.contains(-1)) {
      ++f.oversubscribed_cases;
      continue;
    }
    ++f.judged_cases;
    const RankTimingSummary s = rank_timing_from_json(*r.rank_timing);
    std::set<std::string> counted;  // a host counts a case once, however many of its ranks it names
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
      if (counted.insert(key).second) {
        n.cases.push_back(fmt::format("{} ({} {:.0f}%)", case_text(r), st.kind == kLateArrival ? "late arrival" : "slow progress",
                                      st.share.value() * 100));
        excesses[key].push_back(st.excess_s);
      }
    }
  }
  for (const std::string& key : order) {
    NamedStraggler n = by_key.at(key);
    n.excess_s = median(excesses.at(key));
    f.named.push_back(std::move(n));
  }
  std::stable_sort(f.named.begin(), f.named.end(),
                   [](const NamedStraggler& a, const NamedStraggler& b) { return a.cases.size() > b.cases.size(); });
  return f;
}

std::string stragglers_text(const StragglerFindings& f) {
  if (f.judged_cases == 0 && f.oversubscribed_cases == 0) return "";
  std::string out;
  const std::string left_out =
      f.oversubscribed_cases == 0
          ? ""
          : fmt::format("; {} case(s) of oversubscribed launches not judged (ranks wait for cores)",
                        f.oversubscribed_cases);
  if (f.named.empty())
    return fmt::format("stragglers: none in {} case(s) with per-rank timing{}\n", f.judged_cases, left_out);
  out += fmt::format("stragglers ({} case(s) with per-rank timing{}):\n", f.judged_cases, left_out);
  for (const NamedStraggler& n : f.named) {
    std::vector<std::string> kinds;
    for (const auto& k : n.kinds) kinds.push_back(kind_text(k));
    const std::string who = n.host.empty() ? fmt::format("rank {}", *n.ranks.begin())
                                           : fmt::format("host {} (rank{} {})", n.host, n.ranks.size() == 1 ? "" : "s",
                                                         fmt::join(n.ranks, ", "));
    const std::string shares = n.share_low >= n.share_high ? fmt::format("{:.0f}%", n.share_high * 100)
                                                           : fmt::format("up to {:.0f}%", n.share_high * 100);
    out += fmt::format("  {} {} in {} of {} case(s), in {} of their calls (at least {:.0f}% at 95% confidence), "
                       "by a median {}: {}\n",
                       who, fmt::join(kinds, " and "), n.cases.size(), f.judged_cases, shares, n.share_low * 100,
                       duration_text(n.excess_s), fmt::join(n.cases, "; "));
  }
  return out;
}

}  // namespace pico
