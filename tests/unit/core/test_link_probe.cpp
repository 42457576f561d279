// SPDX-License-Identifier: BSD-3-Clause
// The pairwise link probe (core/link_probe.hpp): the tournament meets every
// pair once; the host-pair table keeps intra- and inter-host pairs apart; the
// verdict names a host whose links are all slow, none on a uniform cluster
// (noise included), and says "not measured" where there is no inter-host link.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/link_probe.hpp"

using namespace pico;
using nlohmann::json;

namespace {

// Every pair of hosts n1..n<hosts>, each link taking `base` seconds (x
// `slow_factor` where it touches host `slow`), times a log-normal noise of
// `noise` (sigma).
std::vector<HostLink> table(int hosts, int slow, double slow_factor, double noise, unsigned seed,
                            double base = 8.4e-3) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> z(0, 1);
  std::vector<HostLink> links;
  for (int a = 1; a <= hosts; ++a)
    for (int b = a + 1; b <= hosts; ++b) {
      double t = base * std::exp(noise * z(rng));
      if (a == slow || b == slow) t *= slow_factor;
      links.push_back({.a = fmt::format("n{}", a),
                       .b = fmt::format("n{}", b),
                       .rank_pairs = 1,
                       .median_s = t,
                       .min_s = t,
                       .max_s = t});
    }
  return links;
}

}  // namespace

TEST_CASE("link probe: the tournament meets every pair of ranks once, disjoint pairs per round", "[link_probe]") {
  for (int p = 2; p <= 41; ++p) {
    std::set<std::pair<int, int>> met;
    std::vector<int> byes(static_cast<std::size_t>(p), 0);
    for (int round = 0; round < tournament_rounds(p); ++round)
      for (int r = 0; r < p; ++r) {
        const int partner = tournament_partner(r, round, p);
        if (partner < 0) {
          ++byes[static_cast<std::size_t>(r)];
          continue;
        }
        INFO("p " << p << " round " << round << " rank " << r);
        REQUIRE(partner != r);
        REQUIRE(tournament_partner(partner, round, p) == r);  // a pair, so disjoint within the round
        if (r < partner) CHECK(met.insert({r, partner}).second);
      }
    CHECK(met.size() == static_cast<std::size_t>(p * (p - 1) / 2));
    for (int b : byes) CHECK(b == (p % 2 == 0 ? 0 : 1));
  }
  CHECK(tournament_rounds(1) == 0);
  CHECK(probe_rounds(1).empty());
  CHECK(probe_rounds(4) == std::vector<int>{0, 1, 2});
}

TEST_CASE("link probe: above its bound the rounds are a sample, evenly spread", "[link_probe]") {
  CHECK(probe_rounds(kLinkProbeMaxRounds + 1).size() == static_cast<std::size_t>(kLinkProbeMaxRounds));
  const std::vector<int> rounds = probe_rounds(1000);
  REQUIRE(rounds.size() == static_cast<std::size_t>(kLinkProbeMaxRounds));
  CHECK(std::set<int>(rounds.begin(), rounds.end()).size() == rounds.size());
  CHECK(rounds.front() == 0);
  CHECK(rounds.back() < tournament_rounds(1000));
  CHECK(rounds.back() > tournament_rounds(1000) * 9 / 10);
}

TEST_CASE("link probe: the host-pair table, a pair's time the slower of its two ranks'", "[link_probe]") {
  // 4 ranks, 2 hosts; rank 3's own time is 10 ms, every other 1 ms.
  const std::vector<int> rounds = probe_rounds(4);
  std::vector<double> times(4 * rounds.size(), 1e-3);
  for (std::size_t k = 0; k < rounds.size(); ++k) times[3 * rounds.size() + k] = 10e-3;
  const std::vector<HostLink> links = host_links(times, rounds, 4, {"a", "a", "b", "b"});
  REQUIRE(links.size() == 3);
  CHECK((links[0].a == "a" && links[0].b == "a" && links[0].rank_pairs == 1 && links[0].median_s == 1e-3));
  CHECK((links[1].a == "a" && links[1].b == "b" && links[1].rank_pairs == 4));
  CHECK(links[1].min_s == 1e-3);                                 // 0-2, 1-2
  CHECK(links[1].max_s == 10e-3);                                // 0-3, 1-3
  CHECK((links[2].intra_host() && links[2].median_s == 10e-3));  // 2-3
  // The record reads back as it was written.
  const json record = link_probe_record(4, rounds, links, 0.1);
  CHECK(record["rank_pairs"] == 6);
  CHECK(record["rounds"] == 3);
  CHECK(record["host_pairs"][1]["intra_host"] == false);
  const std::vector<HostLink> back = host_links_from_json(record);
  REQUIRE(back.size() == 3);
  CHECK((back[1].a == "a" && back[1].b == "b" && back[1].max_s == 10e-3 && back[1].rank_pairs == 4));
}

TEST_CASE("link probe: a host whose links are all slow is named, with its figure and ratio", "[link_probe]") {
  const LinkFindings f = judge_links(table(4, 3, 10, 0, 1));
  CHECK(f.verdict == LinkVerdict::named);
  CHECK(f.hosts == 4);
  CHECK(f.inter_host_links == 6);
  CHECK(f.judged_hosts == 4);
  REQUIRE(f.named.size() == 1);
  const SlowHost& s = f.named.front();
  CHECK(s.host == "n3");
  CHECK((s.links == 3 && s.agreeing == 3 && s.rank_pairs == 3));
  CHECK(s.median_s == Approx(84e-3));
  CHECK(s.others_median_s == Approx(8.4e-3));
  CHECK(s.ratio == Approx(10));
  const json j = to_json(f);
  CHECK(j["verdict"] == "named");
  CHECK(j["named"][0]["host"] == "n3");
  CHECK(j["named"][0]["agreeing"] == 3);
  // Three hosts are enough: each has two links and one beside them.
  const LinkFindings three = judge_links(table(3, 2, 5, 0, 1));
  REQUIRE(three.verdict == LinkVerdict::named);
  CHECK(three.named.front().host == "n2");
}

TEST_CASE("link probe: a uniform cluster names none, and says which host came nearest", "[link_probe]") {
  const LinkFindings f = judge_links(table(4, 0, 1, 0, 1));
  CHECK(f.verdict == LinkVerdict::none);
  CHECK(f.named.empty());
  CHECK(f.closest_ratio == Approx(1));
  CHECK(!f.closest_host.empty());
  CHECK(f.closest_min_ratio == Approx(1));
  CHECK(to_json(f)["closest"]["min_ratio"] == Approx(1));
}

TEST_CASE("link probe: noise names none on a uniform cluster and still finds a host at a quarter of the speed",
          "[link_probe]") {
  for (unsigned seed = 0; seed < 200; ++seed) {
    for (int hosts : {4, 8}) {
      INFO("seed " << seed << ", " << hosts << " hosts");
      // 30% log-normal noise per link: a uniform cluster's links spread, none named.
      CHECK(judge_links(table(hosts, 0, 1, 0.3, seed)).named.empty());
      // 10%: a host at a quarter of the speed named, and no other with it.
      const LinkFindings slow = judge_links(table(hosts, 2, 4, 0.1, seed));
      REQUIRE(slow.named.size() == 1);
      CHECK(slow.named.front().host == "n2");
    }
  }
}

TEST_CASE("link probe: a host with one fast link is not consistently slow", "[link_probe]") {
  std::vector<HostLink> links = table(4, 3, 10, 0, 1);
  for (HostLink& l : links)
    if (l.a == "n1" && l.b == "n3") l.median_s = 8.4e-3;
  const LinkFindings f = judge_links(links);
  CHECK(f.verdict == LinkVerdict::none);
  CHECK(f.closest_host == "n3");  // its links a median 10x the others', but one of them 1x
  CHECK(f.closest_ratio == Approx(10));
  CHECK(f.closest_min_ratio == Approx(1));
}

TEST_CASE("link probe: one host is not measured, two hosts not attributable", "[link_probe]") {
  const LinkFindings one = judge_links({{.a = "vm", .b = "vm", .rank_pairs = 6, .median_s = 1e-4}});
  CHECK(one.verdict == LinkVerdict::not_measured);
  CHECK(one.reason.find("one host") != std::string::npos);
  CHECK(to_json(one)["verdict"] == "not_measured");
  const LinkFindings two = judge_links(table(2, 2, 10, 0, 1));
  CHECK(two.verdict == LinkVerdict::not_attributable);
  CHECK(two.named.empty());
  CHECK(two.inter_host_links == 1);
}

TEST_CASE("link probe: a report's launches, older reports and per-rank timing off", "[link_probe]") {
  const std::vector<int> rounds = probe_rounds(4);
  std::vector<HostLink> links = table(4, 4, 8, 0, 1);
  json report = {{"provenance", {{"launches", json::array()}}}, {"cases", json::array()}};
  CHECK(find_slow_links(report).verdict == LinkVerdict::absent);  // before the probe: nothing said
  CHECK(to_json(find_slow_links(report)).is_null());
  report["provenance"]["launches"].push_back({{"launch", 0},
                                              {"hosts", json::array()},
                                              {"ranks", json::array()},
                                              {"link_probe", link_probe_record(4, rounds, links, 0.1)}});
  const LinkFindings f = find_slow_links(report);
  CHECK(f.launches_probed == 1);
  REQUIRE(f.verdict == LinkVerdict::named);
  CHECK(f.named.front().host == "n4");
  CHECK(f.bytes == kLinkProbeBytes);
}
