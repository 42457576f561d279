// SPDX-License-Identifier: BSD-3-Clause
#include "reports/html_stragglers.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/case_result.hpp"
#include "core/rank_samples.hpp"
#include "core/run_stragglers.hpp"
#include "reports/slow_links.hpp"
#include "reports/stragglers.hpp"
#include "stats/stats.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

using nlohmann::json;

// Each rank's host in the case's launch, from provenance.launches[K].hosts.
std::map<int, std::string> hosts_of(const json& report, int launch) {
  std::map<int, std::string> out;
  const auto p = report.find("provenance");
  if (p == report.end() || !p->contains("launches") || !p->at("launches").is_array()) return out;
  for (const json& l : p->at("launches")) {
    if (!l.is_object() || l.value("launch", -2) != launch || !l.contains("hosts") || !l["hosts"].is_array()) continue;
    for (const json& h : l["hosts"])
      if (h.is_object() && h.contains("ranks") && h["ranks"].is_array())
        for (const json& r : h["ranks"])
          if (r.is_number_integer()) out[r.get<int>()] = h.value("name", "");
  }
  return out;
}

// One case's heat map: per rank (row) and column (a bin of iterations), the
// bin's median lateness in microseconds: how long after the first rank this
// rank entered (late arrival) or left (slow progress).
json heat_of(const CaseResult& r, const StragglerCase& named, const json& report) {
  const RankTimes t = rank_samples_from_json(*r.rank_samples);
  const bool arriving = named.kind == kLateArrival;
  std::vector<std::vector<double>> late(static_cast<std::size_t>(t.ranks));
  for (std::int64_t i = 0; i < t.samples; ++i) {
    double first = 0;
    for (int k = 0; k < t.ranks; ++k) {
      const double v = arriving ? t.arrival(k, i) : t.exit(k, i);
      first = k == 0 ? v : std::min(first, v);
    }
    for (int k = 0; k < t.ranks; ++k)
      late[static_cast<std::size_t>(k)].push_back(((arriving ? t.arrival(k, i) : t.exit(k, i)) - first) * 1e6);
  }
  // Past kHeatRanks, the ranks latest at the median, the named one among them.
  std::vector<int> ranks(static_cast<std::size_t>(t.ranks));
  std::iota(ranks.begin(), ranks.end(), 0);
  if (t.ranks > kHeatRanks) {
    std::vector<double> med;
    for (const auto& v : late) med.push_back(median_of(v));
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
      if ((a == named.rank) != (b == named.rank)) return a == named.rank;
      return med[static_cast<std::size_t>(a)] > med[static_cast<std::size_t>(b)];
    });
    ranks.resize(kHeatRanks);
    std::sort(ranks.begin(), ranks.end());
  }
  const std::int64_t bin = std::max<std::int64_t>(1, (t.samples + kHeatColumns - 1) / kHeatColumns);
  const std::map<int, std::string> hosts = hosts_of(report, r.launch);
  json labels = json::array(), values = json::array();
  for (const int k : ranks) {
    const auto h = hosts.find(k);
    labels.push_back(h != hosts.end() && !h->second.empty() ? fmt::format("rank {} ({})", k, h->second)
                                                            : fmt::format("rank {}", k));
    const auto& v = late[static_cast<std::size_t>(k)];
    json row = json::array();
    for (std::int64_t b = 0; b < t.samples; b += bin) {
      const auto from = v.begin() + b, to = v.begin() + std::min(t.samples, b + bin);
      // Rounded to 0.01 us: the page carries no digits the clock residual cannot tell apart.
      row.push_back(std::round(median_of(std::vector<double>(from, to)) * 100) / 100);
    }
    values.push_back(std::move(row));
  }
  return {{"case", fmt::format("{} {} {}, {} ranks", named.collective, size_text(named.bytes), named.algorithm, named.np)},
          {"kind", named.kind},
          {"rank", named.rank},
          {"samples", t.samples},
          {"bin", bin},
          {"ranks_shown", ranks.size()},
          {"ranks", t.ranks},
          {"labels", std::move(labels)},
          {"late_us", std::move(values)}};
}

}  // namespace

json html_stragglers(const json& report) {
  const StragglerFindings f = find_stragglers(report);
  // The slow links said beside the stragglers, once per run (docs/report.md#slow-links).
  const LinkFindings links = find_slow_links(report);
  const std::string text = stragglers_text(f) + slow_links_text(links);
  if (text.empty()) return nullptr;
  json named = json::array();
  for (const NamedStraggler& n : f.named)
    named.push_back({{"who", straggler_who(n)},
                     {"kinds", n.kinds},
                     {"cases", n.cases.size()},
                     {"share", n.pooled.value()},
                     {"share_low", n.pooled.low},
                     {"share_high", n.pooled.high},
                     {"excess_s", n.excess_s}});
  // The cases a straggler was named in, each once, in the order named; then those of the names within
  // chance, which the page lets a reader judge by eye (a run of one case can name no host for the run).
  std::map<std::string, const StragglerCase*> wanted;
  std::vector<std::string> order;
  for (const auto* list : {&f.named, &f.within_chance})
    for (const NamedStraggler& n : *list)
      for (const StragglerCase& c : n.cases)
        if (wanted.try_emplace(c.case_id, &c).second) order.push_back(c.case_id);
  std::map<std::string, CaseResult> with_samples;
  for (CaseResult& r : case_results_of(report))
    if (r.rank_samples && wanted.contains(r.c.case_id)) with_samples.emplace(r.c.case_id, std::move(r));
  json heat = json::array();
  int without_samples = 0, left_out = 0;
  for (const std::string& id : order) {
    const auto it = with_samples.find(id);
    if (it == with_samples.end()) {
      ++without_samples;
      continue;
    }
    if (static_cast<int>(heat.size()) >= kHeatCases) {
      ++left_out;
      continue;
    }
    heat.push_back(heat_of(it->second, *wanted.at(id), report));
  }
  return {{"text", text},
          {"named", std::move(named)},
          {"slow_links", to_json(links)},
          {"heat", std::move(heat)},
          {"cases_without_samples", without_samples},
          {"cases_left_out", left_out}};
}

}  // namespace pico
