// SPDX-License-Identifier: BSD-3-Clause
#include "core/link_probe.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/case_result.hpp"
#include "core/oversubscription.hpp"
#include "stats/stats.hpp"

namespace pico {
namespace {

using HostPair = std::pair<std::string, std::string>;

HostPair ordered(std::string a, std::string b) {
  if (b < a) std::swap(a, b);
  return {std::move(a), std::move(b)};
}

HostLink summarised(const HostPair& hosts, const std::vector<double>& times, int rank_pairs) {
  return {.a = hosts.first,
          .b = hosts.second,
          .rank_pairs = rank_pairs,
          .median_s = median_of(times),
          .min_s = *std::min_element(times.begin(), times.end()),
          .max_s = *std::max_element(times.begin(), times.end())};
}

// Whether a case of the report was measured with per-rank timing off.
bool rank_timing_off(const nlohmann::json& report) {
  for (const CaseResult& r : case_results_of(report))
    if (r.rank_timing_off) return true;
  return false;
}

}  // namespace

int tournament_rounds(int ranks) {
  if (ranks < 2) return 0;
  return ranks % 2 == 0 ? ranks - 1 : ranks;
}

// The circle method on n = ranks rounded up to even (the extra slot, n - 1,
// is the bye where ranks is odd): slot n - 1 stays put and meets `round`; the
// others pair as (round + i, round - i) mod (n - 1), so a rank's partner is
// 2 x round - rank mod (n - 1).
int tournament_partner(int rank, int round, int ranks) {
  if (ranks < 2 || rank < 0 || rank >= ranks) return -1;
  const int n = ranks % 2 == 0 ? ranks : ranks + 1;
  const int m = n - 1;
  int partner = 0;
  if (rank == m)
    partner = round;
  else if (rank == round % m)
    partner = m;
  else
    partner = ((2 * round - rank) % m + m) % m;
  return partner < ranks ? partner : -1;
}

std::vector<int> probe_rounds(int ranks) {
  const int total = tournament_rounds(ranks);
  std::vector<int> rounds;
  if (total <= kLinkProbeMaxRounds) {
    for (int r = 0; r < total; ++r) rounds.push_back(r);
    return rounds;
  }
  for (int k = 0; k < kLinkProbeMaxRounds; ++k)
    rounds.push_back(static_cast<int>(static_cast<std::int64_t>(k) * total / kLinkProbeMaxRounds));
  return rounds;
}

std::vector<HostLink> host_links(const std::vector<double>& times, const std::vector<int>& rounds, int ranks,
                                 const std::vector<std::string>& hosts) {
  const std::size_t per_rank = rounds.size();
  auto host_of = [&](int r) {
    const std::size_t i = static_cast<std::size_t>(r);
    return i < hosts.size() && !hosts[i].empty() ? hosts[i] : fmt::format("rank {}", r);
  };
  std::map<HostPair, std::vector<double>> by_pair;
  for (std::size_t k = 0; k < per_rank; ++k)
    for (int r = 0; r < ranks; ++r) {
      const int partner = tournament_partner(r, rounds[k], ranks);
      if (partner <= r) continue;  // each pair once, from its lower rank; -1: sat out
      const double mine = times[static_cast<std::size_t>(r) * per_rank + k];
      const double theirs = times[static_cast<std::size_t>(partner) * per_rank + k];
      if (mine < 0 || theirs < 0) continue;
      // The exchange is done when both ranks have their message.
      by_pair[ordered(host_of(r), host_of(partner))].push_back(std::max(mine, theirs));
    }
  std::vector<HostLink> links;
  for (const auto& [pair, t] : by_pair) links.push_back(summarised(pair, t, static_cast<int>(t.size())));
  return links;
}

nlohmann::json link_probe_record(int ranks, const std::vector<int>& rounds, const std::vector<HostLink>& links,
                                 double duration_s) {
  nlohmann::json pairs = nlohmann::json::array();
  int rank_pairs = 0;
  for (const HostLink& l : links) {
    rank_pairs += l.rank_pairs;
    pairs.push_back({{"hosts", {l.a, l.b}},
                     {"intra_host", l.intra_host()},
                     {"rank_pairs", l.rank_pairs},
                     {"median_s", l.median_s},
                     {"min_s", l.min_s},
                     {"max_s", l.max_s}});
  }
  return {{"method", kLinkProbeMethod},
          {"bytes", kLinkProbeBytes},
          {"warmups", kLinkProbeWarmups},
          {"repetitions", kLinkProbeRepetitions},
          {"ranks", ranks},
          {"rounds", rounds.size()},
          {"tournament_rounds", tournament_rounds(ranks)},
          {"rank_pairs", rank_pairs},
          {"duration_s", duration_s},
          {"host_pairs", std::move(pairs)}};
}

std::vector<HostLink> host_links_from_json(const nlohmann::json& record) {
  std::vector<HostLink> links;
  for (const auto& p : record.at("host_pairs")) {
    const auto& h = p.at("hosts");
    links.push_back({.a = h.at(0).get<std::string>(),
                     .b = h.at(1).get<std::string>(),
                     .rank_pairs = p.at("rank_pairs").get<int>(),
                     .median_s = p.at("median_s").get<double>(),
                     .min_s = p.at("min_s").get<double>(),
                     .max_s = p.at("max_s").get<double>()});
  }
  return links;
}

LinkFindings judge_links(const std::vector<HostLink>& links) {
  LinkFindings f;
  std::vector<const HostLink*> inter;
  std::set<std::string> hosts;
  for (const HostLink& l : links) {
    if (l.intra_host()) {
      ++f.intra_host_links;
      continue;
    }
    inter.push_back(&l);
    hosts.insert(l.a);
    hosts.insert(l.b);
  }
  f.hosts = static_cast<int>(hosts.size());
  f.inter_host_links = static_cast<int>(inter.size());
  if (inter.empty()) {
    f.verdict = LinkVerdict::not_measured;
    f.reason = links.empty() ? "no pair of ranks probed"
                             : fmt::format("one host: no inter-host links ({} intra-host pair(s) of hosts probed)",
                                           f.intra_host_links);
    return f;
  }
  std::vector<double> all;
  for (const HostLink* l : inter) all.push_back(l->median_s);
  f.median_s = median_of(all);
  for (const std::string& h : hosts) {
    std::vector<const HostLink*> its;
    std::vector<double> others;
    for (const HostLink* l : inter) {
      if (l->a == h || l->b == h)
        its.push_back(l);
      else
        others.push_back(l->median_s);
    }
    // Which end of a link is slow needs two of the host's links and one beside them.
    if (its.size() < 2 || others.empty()) continue;
    ++f.judged_hosts;
    SlowHost s{.host = h, .links = static_cast<int>(its.size()), .others_median_s = median_of(others)};
    std::vector<double> times, ratios;
    for (const HostLink* l : its) {
      times.push_back(l->median_s);
      s.rank_pairs += l->rank_pairs;
      const double ratio = s.others_median_s > 0 ? l->median_s / s.others_median_s : 0;
      ratios.push_back(ratio);
      if (ratio >= kSlowLinkFactor) ++s.agreeing;
    }
    s.median_s = median_of(times);
    s.ratio = median_of(ratios);
    s.min_ratio = *std::min_element(ratios.begin(), ratios.end());
    if (s.agreeing == s.links)
      f.named.push_back(std::move(s));
    else if (f.closest_host.empty() || s.ratio > f.closest_ratio) {
      f.closest_host = s.host;
      f.closest_ratio = s.ratio;
      f.closest_min_ratio = s.min_ratio;
    }
  }
  if (f.judged_hosts == 0) {
    f.verdict = LinkVerdict::not_attributable;
    f.reason = fmt::format(
        "{} host(s), {} inter-host link(s): no host has two links and a link beside them to "
        "compare, so which end of a slow link is slow cannot be told",
        f.hosts, f.inter_host_links);
    return f;
  }
  std::stable_sort(f.named.begin(), f.named.end(),
                   [](const SlowHost& x, const SlowHost& y) { return x.ratio > y.ratio; });
  f.verdict = f.named.empty() ? LinkVerdict::none : LinkVerdict::named;
  return f;
}

LinkFindings find_slow_links(const nlohmann::json& report) {
  std::set<int> crowded;  // oversubscribed launches
  const auto p = report.find("provenance");
  if (p != report.end())
    for (const Oversubscription& o : oversubscribed(*p)) crowded.insert(o.launch);
  std::map<HostPair, std::vector<double>> medians;
  std::map<HostPair, std::vector<HostLink>> measured;
  int probed = 0, left_out = 0;
  std::int64_t bytes = kLinkProbeBytes;
  if (p != report.end() && p->contains("launches"))
    for (const auto& l : p->at("launches")) {
      const auto probe = l.find("link_probe");
      if (probe == l.end() || probe->is_null()) continue;
      if (crowded.contains(l.value("launch", -1)) || crowded.contains(-1)) {
        ++left_out;
        continue;
      }
      ++probed;
      bytes = probe->value("bytes", kLinkProbeBytes);
      for (HostLink& link : host_links_from_json(*probe)) measured[ordered(link.a, link.b)].push_back(std::move(link));
    }
  LinkFindings f;
  if (probed == 0 && left_out == 0) {
    if (rank_timing_off(report)) {
      f.verdict = LinkVerdict::not_measured;
      f.reason = "per-rank timing off (timing.rank_timing: false)";
    }
    return f;
  }
  std::vector<HostLink> pooled;
  for (const auto& [pair, links] : measured) {
    HostLink l{.a = pair.first, .b = pair.second, .min_s = links.front().min_s, .max_s = links.front().max_s};
    std::vector<double> m;
    for (const HostLink& x : links) {
      m.push_back(x.median_s);
      l.rank_pairs += x.rank_pairs;
      l.min_s = std::min(l.min_s, x.min_s);
      l.max_s = std::max(l.max_s, x.max_s);
    }
    l.median_s = median_of(m);
    pooled.push_back(std::move(l));
  }
  if (probed == 0) {
    f.verdict = LinkVerdict::not_measured;
    f.reason = fmt::format("every probed launch ({}) was oversubscribed: ranks waited for cores", left_out);
  } else {
    f = judge_links(pooled);
  }
  f.launches_probed = probed;
  f.launches_oversubscribed = left_out;
  f.bytes = bytes;
  return f;
}

nlohmann::json to_json(const LinkFindings& f) {
  static constexpr const char* kVerdicts[] = {"absent", "not_measured", "not_attributable", "none", "named"};
  if (f.verdict == LinkVerdict::absent) return nullptr;
  nlohmann::json named = nlohmann::json::array();
  for (const SlowHost& s : f.named)
    named.push_back({{"host", s.host},
                     {"links", s.links},
                     {"agreeing", s.agreeing},
                     {"rank_pairs", s.rank_pairs},
                     {"median_s", s.median_s},
                     {"others_median_s", s.others_median_s},
                     {"ratio", s.ratio},
                     {"min_ratio", s.min_ratio}});
  nlohmann::json j = {{"verdict", kVerdicts[static_cast<int>(f.verdict)]},
                      {"launches_probed", f.launches_probed},
                      {"launches_oversubscribed", f.launches_oversubscribed},
                      {"bytes", f.bytes},
                      {"factor", kSlowLinkFactor},
                      {"hosts", f.hosts},
                      {"inter_host_links", f.inter_host_links},
                      {"intra_host_links", f.intra_host_links},
                      {"judged_hosts", f.judged_hosts},
                      {"median_s", f.median_s},
                      {"named", std::move(named)}};
  if (!f.reason.empty()) j["reason"] = f.reason;
  if (!f.closest_host.empty())
    j["closest"] = {{"host", f.closest_host}, {"ratio", f.closest_ratio}, {"min_ratio", f.closest_min_ratio}};
  return j;
}

}  // namespace pico
