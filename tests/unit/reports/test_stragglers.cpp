// SPDX-License-Identifier: BSD-3-Clause
// The run's stragglers (reports/stragglers.hpp): a host slow across
// collectives said once, as a host; ranks where a launch had one host; none
// named where none was; oversubscribed launches left out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/rank_samples.hpp"
#include "core/rank_timing.hpp"
#include "reports/html_stragglers.hpp"
#include "reports/render.hpp"
#include "reports/stragglers.hpp"
#include "stats/stats.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
  }
  return lines;
}

// The text as one line: each line break and the indent after it as one space.
std::string unwrapped(const std::string& text) {
  std::string out;
  for (const std::string& line : split_lines(text))
    out += (out.empty() ? "" : " ") + line.substr(std::min(line.find_first_not_of(' '), line.size()));
  return out;
}

// 4 ranks x 100 samples entering within 1 us, leaving together 20 us later;
// rank `late` (if any) enters 200 us late in every sample.
RankTimes times(int late) {
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
  return t;
}

json summary(int late, const std::vector<std::string>& hosts) {
  const RankTimes t = times(late);
  const RankTimingBasis basis{
      .clock_residual_s = 1e-6, .barrier_stagger_s = 1e-6, .judges_late_arrival = true, .judges_slow_progress = true};
  return to_json(summarize_rank_times(t, hosts, basis));
}

// The example report's first case repeated, as allreduce, bcast and
// allgather in turn, one case per entry of `late` (the rank that enters late
// in it, -1 for none), each with its rank_timing; its launch 0 on the given
// hosts (each with `cores`).
json report_of(const std::vector<int>& late, const std::vector<std::string>& rank_hosts, int cores = 8) {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  json report = json::parse(in);
  const json model = report["cases"][0];
  report["cases"] = json::array();
  const std::vector<json> summaries{summary(-1, rank_hosts), summary(0, rank_hosts), summary(1, rank_hosts),
                                    summary(2, rank_hosts), summary(3, rank_hosts)};
  for (const int l : late) {
    json c = model;
    c["index"] = report["cases"].size();
    c["case_id"] = fmt::format("{:016x}", report["cases"].size() + 1);
    c["collective"] = std::vector<std::string>{"allreduce", "bcast", "allgather"}[report["cases"].size() % 3];
    c["launch"] = 0;
    c["rank_timing"] = summaries.at(static_cast<std::size_t>(l + 1));
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

// Three cases (allreduce, bcast, allgather), each with rank `late` late.
json report_with(int late, const std::vector<std::string>& rank_hosts, int cores = 8) {
  return report_of({late, late, late}, rank_hosts, cores);
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
  // Pooled over its cases: 300 calls, and the interval of all of them.
  CHECK(n.pooled.of == 300);
  CHECK(n.pooled.low > 0.95);
  // The run-level test: 3 of 3 cases, where chance names a host in 5%: 0.05^3.
  CHECK(n.eligible_cases == 3);
  CHECK(n.p_chance == Approx(1.25e-4).epsilon(1e-9));
  CHECK(f.within_chance.empty());
  // report.json's `stragglers` says the same.
  const json j = to_json(f);
  CHECK(j["judged_cases"] == 3);
  REQUIRE(j["named"].size() == 1);
  CHECK(j["named"][0]["host"] == "n1");
  CHECK(j["named"][0]["ranks"] == json::array({2}));
  CHECK(j["named"][0]["share"]["of"] == 300);
  REQUIRE(j["named"][0]["cases"].size() == 3);
  CHECK(j["named"][0]["cases"][1]["collective"] == "bcast");
  CHECK(j["named"][0]["cases"][1]["kind"] == "late_arrival");
  std::string text = stragglers_text(f);
  for (const std::string& line : split_lines(text)) CHECK(line.size() <= 100);  // wrapped as the tables above
  text = unwrapped(text);
  CHECK_THAT(text, Contains("host n1 (rank 2) arrives late in 3 of 3 case(s) (by chance p < 0.001)"));
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
  CHECK(to_json(find_stragglers(old)).is_null());
  CHECK(html_stragglers(old).is_null());
  CHECK_THAT(render_table(old), !Contains("stragglers"));
}

TEST_CASE("stragglers: with per-rank timing off they are not measured, not none", "[stragglers]") {
  json off = report_with(2, kTwoHosts);
  for (json& c : off["cases"]) {
    c.erase("rank_timing");
    c["rank_timing_off"] = true;  // the worker's mark for timing.rank_timing: false
  }
  const StragglerFindings f = find_stragglers(off);
  CHECK(f.judged_cases == 0);
  CHECK(f.unmeasured_cases == 3);
  CHECK(stragglers_text(f) ==
        "stragglers: not measured in 3 case(s): per-rank timing off (timing.rank_timing: false)\n");
  const json j = to_json(f);
  REQUIRE(j.is_object());  // report.json says so too, rather than leaving the key out as old reports do
  CHECK(j.at("unmeasured_cases") == 3);
  CHECK(j.at("judged_cases") == 0);
  CHECK_THAT(render_table(off), Contains("stragglers: not measured in 3 case(s)") && !Contains("none in"));
  CHECK_THAT(html_stragglers(off).at("text").get<std::string>(), Contains("not measured"));

  // Beside judged cases (merged runs), the unmeasured ones are counted apart.
  json mixed = report_with(-1, kTwoHosts);
  mixed["cases"][0].erase("rank_timing");
  mixed["cases"][0]["rank_timing_off"] = true;
  CHECK(stragglers_text(find_stragglers(mixed)) ==
        "stragglers: none in 2 case(s) with per-rank timing; 1 case(s) not measured (timing.rank_timing:\n  false)\n");
}

TEST_CASE("stragglers: an oversubscribed launch's cases are not judged", "[stragglers]") {
  const StragglerFindings f = find_stragglers(report_with(2, kTwoHosts, 1));
  CHECK(f.named.empty());
  CHECK(f.oversubscribed_cases == 3);
  CHECK_THAT(stragglers_text(f), Contains("3 case(s) of oversubscribed launches not judged"));
}

TEST_CASE("stragglers: the HTML page's heat map, of the named cases with samples only", "[stragglers]") {
  json report = report_with(2, kTwoHosts);
  json page = html_stragglers(report);
  CHECK(page["heat"].empty());
  CHECK(page["cases_without_samples"] == 3);
  report["cases"][1]["rank_samples"] = compact_rank_samples(times(2));
  page = html_stragglers(report);
  CHECK(page["cases_without_samples"] == 2);
  REQUIRE(page["heat"].size() == 1);
  const json& heat = page["heat"][0];
  CHECK(heat["case"].get<std::string>().rfind("bcast", 0) == 0);
  CHECK(heat["labels"] == json::array({"rank 0 (n0)", "rank 1 (n0)", "rank 2 (n1)", "rank 3 (n1)"}));
  CHECK(heat["bin"] == 1);
  REQUIRE(heat["late_us"].size() == 4);
  REQUIRE(heat["late_us"][2].size() == 100);
  CHECK(heat["late_us"][2][50].get<double>() == Approx(200).margin(2));
  CHECK(heat["late_us"][0][50].get<double>() < 2);
}

TEST_CASE("stragglers: a heat map past its bounds is binned and keeps the named rank", "[stragglers]") {
  // 100 ranks x 1,000 samples, rank 70 entering 200 us late in each.
  RankTimes t;
  t.ranks = 100;
  t.samples = 1000;
  t.arrival_s.assign(100 * 1000, 0);
  t.exit_s.assign(100 * 1000, 0);
  for (std::int64_t i = 0; i < t.samples; ++i)
    for (int r = 0; r < t.ranks; ++r) {
      const auto k = static_cast<std::size_t>(r * t.samples + i);
      t.arrival_s[k] = static_cast<double>(i) * 1e-3 + (r == 70 ? 200e-6 : 1e-6 * (r % 3));
      t.exit_s[k] = static_cast<double>(i) * 1e-3 + 220e-6;
    }
  const RankTimingBasis basis{
      .clock_residual_s = 1e-6, .barrier_stagger_s = 1e-6, .judges_late_arrival = true, .judges_slow_progress = true};
  json report = report_with(-1, {"vm", "vm", "vm", "vm"}, 128);
  json ranks = json::array();
  for (int r = 0; r < 100; ++r) ranks.push_back(r);
  report["provenance"]["launches"][0]["hosts"][0]["ranks"] = ranks;
  report["cases"] = json::array({report["cases"][0]});
  report["cases"][0]["rank_timing"] = to_json(summarize_rank_times(t, std::vector<std::string>(100, "vm"), basis));
  report["cases"][0]["rank_samples"] = compact_rank_samples(t);
  const json page = html_stragglers(report);
  REQUIRE(page["heat"].size() == 1);
  const json& heat = page["heat"][0];
  CHECK(heat["rank"] == 70);
  CHECK(heat["ranks"] == 100);
  CHECK(heat["ranks_shown"] == kHeatRanks);
  CHECK(heat["bin"] == 10);
  REQUIRE(heat["late_us"].size() == static_cast<std::size_t>(kHeatRanks));
  CHECK(heat["late_us"][0].size() == static_cast<std::size_t>(kHeatColumns));
  bool shown = false;
  for (const json& l : heat["labels"]) shown = shown || l == "rank 70 (vm)";
  CHECK(shown);
}

TEST_CASE("stragglers: the binomial tail the run-level test uses", "[stragglers]") {
  // Against exact sums (Python's math.comb): P(X >= k) for X ~ Binomial(n, p).
  CHECK(binomial_upper_tail(3, 4, 0.05) == Approx(4.8125e-4).epsilon(1e-9));
  CHECK(binomial_upper_tail(14, 400, 0.05) == Approx(0.9386381002496992).epsilon(1e-9));
  CHECK(binomial_upper_tail(40, 400, 0.05) == Approx(3.130289282791374e-05).epsilon(1e-7));
  CHECK(binomial_upper_tail(200, 1000, 0.05) == Approx(7.860594399783909e-63).epsilon(1e-6));
  CHECK(binomial_upper_tail(1, 1, 0.05) == Approx(0.05));
  CHECK(binomial_upper_tail(0, 10, 0.05) == 1);
  CHECK(binomial_upper_tail(11, 10, 0.05) == 0);
}

TEST_CASE("stragglers: a host named in a few cases of many is within chance, not the run's straggler", "[stragglers]") {
  // 400 cases on two hosts, host n1's rank 2 late in 14 of them (as a uniform emulated 2-node run named one
  // host): no more often than the 5% a uniform run gives, so none is named for the run, and it is said apart.
  std::vector<int> late(400, -1);
  for (int i = 0; i < 14; ++i) late[static_cast<std::size_t>(i * 28)] = 2;
  const StragglerFindings f = find_stragglers(report_of(late, kTwoHosts));
  CHECK(f.judged_cases == 400);
  CHECK(f.named.empty());
  REQUIRE(f.within_chance.size() == 1);
  CHECK(f.within_chance.front().host == "n1");
  CHECK(f.within_chance.front().cases.size() == 14);
  CHECK(f.within_chance.front().eligible_cases == 400);
  CHECK(f.within_chance.front().p_chance == Approx(0.9386381002496992).epsilon(1e-9));
  const std::string text = stragglers_text(f);
  for (const std::string& line : split_lines(text)) CHECK(line.size() <= 100);
  CHECK(unwrapped(text) ==
        "stragglers: none in 400 case(s) with per-rank timing; named in a few cases, no more often than on a "
        "uniform run (5% of cases): host n1 (rank 2) in 14 of 400");
  const json j = to_json(f);
  CHECK(j["named"].empty());
  REQUIRE(j["within_chance"].size() == 1);
  CHECK(j["within_chance"][0]["host"] == "n1");
  CHECK(j["test"]["alpha"] == Approx(0.01));
  CHECK(j["test"]["chance_case_share"] == Approx(0.05));
  // Named in 40 of the 400 (10%): more than chance gives (p 3e-5, below 0.01), so named for the run.
  std::fill(late.begin(), late.end(), -1);
  for (int i = 0; i < 40; ++i) late[static_cast<std::size_t>(i * 10)] = 2;
  const StragglerFindings more = find_stragglers(report_of(late, kTwoHosts));
  REQUIRE(more.named.size() == 1);
  CHECK(more.named.front().cases.size() == 40);
  CHECK(more.named.front().p_chance == Approx(3.130289282791374e-05).epsilon(1e-7));
  CHECK(more.within_chance.empty());
}
