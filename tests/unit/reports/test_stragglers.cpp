// SPDX-License-Identifier: BSD-3-Clause
// The run's stragglers (reports/stragglers.hpp): a host slow across
// collectives said once, as a host; ranks where a launch had one host; none
// named where none was; oversubscribed launches left out.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/rank_timing.hpp"
#include "reports/render.hpp"
#include "reports/stragglers.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// 4 ranks x 100 samples entering within 1 us, leaving together 20 us later;
// rank `late` (if any) enters 200 us late in every sample.
json summary(int late, const std::vector<std::string>& hosts) {
  std::mt19937 rng(static_cast<unsigned>(late + 10));
  std::uniform_real_distribution<double> jitter(0, 1e-6);
  RankTimes t;
  t.ranks = 4;
  t.samples = 100;
  t.arrival_s.resize(400);
  t.exit_s.resize(400);
  for (std::int64_t i = 0; i < t.samples; ++i) {
    double last = 0;
    for (int r = 0; r < 4; ++r) {
      double& a = t.arrival_s[static_cast<std::size_t>(r * t.samples + i)];
      a = static_cast<double>(i) * 1e-3 + jitter(rng) + (r == late ? 200e-6 : 0);
      last = std::max(last, a);
    }
    for (int r = 0; r < 4; ++r) t.exit_s[static_cast<std::size_t>(r * t.samples + i)] = last + 20e-6 + jitter(rng);
  }
  const RankTimingBasis basis{
      .clock_residual_s = 1e-6, .barrier_stagger_s = 1e-6, .judges_late_arrival = true, .judges_slow_progress = true};
  return to_json(summarize_rank_times(t, hosts, basis));
}

// The example report's first case as allreduce, bcast and allgather, each
// with its rank_timing; its launch 0 on the given hosts (each with `cores`).
json report_with(int late, const std::vector<std::string>& rank_hosts, int cores = 8) {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  json report = json::parse(in);
  const json model = report["cases"][0];
  report["cases"] = json::array();
  for (const char* collective : {"allreduce", "bcast", "allgather"}) {
    json c = model;
    c["index"] = report["cases"].size();
    c["case_id"] = fmt::format("{:016x}", report["cases"].size() + 1);
    c["collective"] = collective;
    c["launch"] = 0;
    c["rank_timing"] = summary(late, rank_hosts);
    report["cases"].push_back(c);
  }
  json hosts = json::array();
  for (std::size_t r = 0; r < rank_hosts.size(); ++r) {
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](const json& h) { return h["name"] == rank_hosts[r]; });
    if (it == hosts.end()) {
      hosts.push_back({{"name", rank_hosts[r]}, {"ranks", json::array()}, {"topology", {{"cores", cores}}}});
      it = hosts.end() - 1;
    }
    (*it)["ranks"].push_back(r);
  }
  report["provenance"]["launches"] = json::array({{{"launch", 0}, {"hosts", hosts}, {"ranks", json::array()}}});
  return report;
}

const std::vector<std::string> kTwoHosts{"n0", "n0", "n1", "n1"};

}  // namespace

TEST_CASE("stragglers: a host slow across collectives is named once, as a host", "[stragglers]") {
  const StragglerFindings f = find_stragglers(report_with(2, kTwoHosts));
  CHECK(f.judged_cases == 3);
  REQUIRE(f.named.size() == 1);
  const NamedStraggler& n = f.named.front();
  CHECK(n.host == "n1");
  CHECK(n.ranks == std::set<int>{2});
  CHECK(n.kinds == std::set<std::string>{std::string(kLateArrival)});
  CHECK(n.cases.size() == 3);
  CHECK(n.excess_s == Approx(200e-6).margin(2e-6));
  CHECK(n.share_low > 0.9);
  const std::string text = stragglers_text(f);
  CHECK_THAT(text, Contains("host n1 (rank 2) arrives late in 3 of 3 case(s)"));
  CHECK_THAT(text, Contains("at 95% confidence"));
  CHECK_THAT(text, Contains("allgather"));
  // The table says it too.
  CHECK_THAT(render_table(report_with(2, kTwoHosts)), Contains("host n1 (rank 2) arrives late"));
}

TEST_CASE("stragglers: on one host, the rank is named", "[stragglers]") {
  const StragglerFindings f = find_stragglers(report_with(1, {"vm", "vm", "vm", "vm"}));
  REQUIRE(f.named.size() == 1);
  CHECK(f.named.front().host.empty());
  CHECK_THAT(stragglers_text(f), Contains("rank 1 arrives late in 3 of 3 case(s)"));
}

TEST_CASE("stragglers: none named where no rank held the calls up, nothing said without per-rank timing",
          "[stragglers]") {
  const StragglerFindings none = find_stragglers(report_with(-1, kTwoHosts));
  CHECK(none.named.empty());
  CHECK(stragglers_text(none) == "stragglers: none in 3 case(s) with per-rank timing\n");
  json old = report_with(2, kTwoHosts);
  for (json& c : old["cases"]) c.erase("rank_timing");
  CHECK(stragglers_text(find_stragglers(old)).empty());
  CHECK_THAT(render_table(old), !Contains("stragglers"));
}

TEST_CASE("stragglers: an oversubscribed launch's cases are not judged", "[stragglers]") {
  const StragglerFindings f = find_stragglers(report_with(2, kTwoHosts, 1));
  CHECK(f.named.empty());
  CHECK(f.oversubscribed_cases == 3);
  CHECK_THAT(stragglers_text(f), Contains("3 case(s) of oversubscribed launches not judged"));
}
