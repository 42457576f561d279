// SPDX-License-Identifier: BSD-3-Clause
// The run's slow links in words (reports/slow_links.hpp): the host named once
// with its figure, ratio and agreeing links, in the table, the terminal view
// and the HTML page's stragglers text; none on a uniform cluster; not measured
// on one host or with per-rank timing off; nothing said by older reports.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/link_probe.hpp"
#include "reports/html_stragglers.hpp"
#include "reports/render.hpp"
#include "reports/slow_links.hpp"
#include "reports/terminal_view.hpp"

using namespace pico;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// The example report, its one launch on 4 hosts x 1 rank (8 cores each), its
// link probe's links taking 8.4 ms (1 MiB at 1 Gbit/s), x `slow_factor`
// where they touch node `slow`.
json report_with(int slow, double slow_factor) {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  json report = json::parse(in);
  json hosts = json::array();
  std::vector<std::string> names;
  for (int r = 0; r < 4; ++r) {
    names.push_back(fmt::format("node{}", r + 1));
    hosts.push_back({{"name", names.back()}, {"ranks", {r}}, {"topology", {{"cores", 8}}}});
  }
  const std::vector<int> rounds = probe_rounds(4);
  std::vector<double> times(4 * rounds.size(), 8.4e-3);
  for (std::size_t k = 0; k < rounds.size(); ++k)
    times[static_cast<std::size_t>(slow - 1) * rounds.size() + k] *= slow_factor;
  report["provenance"]["launches"] =
      json::array({{{"launch", 0},
                    {"hosts", hosts},
                    {"ranks", json::array()},
                    {"link_probe", link_probe_record(4, rounds, host_links(times, rounds, 4, names), 0.1)}}});
  return report;
}

}  // namespace

TEST_CASE("slow links: the slow host named once, with its figure and how sure", "[slow_links]") {
  const json report = report_with(3, 10);
  const std::string text = slow_links_text(find_slow_links(report));
  CHECK_THAT(text, Contains("slow links (6 inter-host link(s) of 4 hosts, pairwise 1MiB exchanges):"));
  CHECK_THAT(text, Contains("host node3: its 3 inter-host links take a median 84.00 ms (100 Mbit/s), 10.0x the "
                            "8.40 ms (999 Mbit/s) of the links not touching it; 3 of 3 of its links at least 2.0x"));
  CHECK_THAT(text, !Contains("node1:") && !Contains("node2:") && !Contains("node4:"));
  CHECK_THAT(render_table(report), Contains("host node3: its 3 inter-host links"));
  const std::string term = render_terminal(report, 400, false);
  CHECK_THAT(term, Contains("host node3: its 3 inter-host links"));
  const json page = html_stragglers(report);
  REQUIRE(page.is_object());
  CHECK_THAT(page.at("text").get<std::string>(), Contains("host node3"));
  CHECK(page.at("slow_links").at("named").at(0).at("host") == "node3");
}

TEST_CASE("slow links: a uniform cluster names none, with the nearest host's ratio", "[slow_links]") {
  const std::string text = slow_links_text(find_slow_links(report_with(3, 1)));
  CHECK_THAT(text, Contains("slow links: none among 6 inter-host link(s) of 4 hosts (pairwise 1MiB exchanges, median "
                            "8.40 ms"));
  CHECK_THAT(text,
             Contains("its links a median 1.00x the others', its fastest 1.00x (named where every link is 2.0x)"));
}

TEST_CASE("slow links: one host is not measured, per-rank timing off is not measured, older reports say nothing",
          "[slow_links]") {
  json one = report_with(3, 1);
  json& probe = one["provenance"]["launches"][0]["link_probe"];
  for (json& p : probe["host_pairs"]) p["hosts"] = {"vm", "vm"};
  CHECK_THAT(slow_links_text(find_slow_links(one)),
             Contains("slow links: not measured: one host: no inter-host links"));

  json old = report_with(3, 10);
  old["provenance"]["launches"][0].erase("link_probe");
  CHECK(slow_links_text(find_slow_links(old)).empty());
  CHECK_THAT(render_table(old), !Contains("slow links"));

  json off = old;
  for (json& c : off["cases"]) c["rank_timing_off"] = true;
  CHECK(slow_links_text(find_slow_links(off)) ==
        "slow links: not measured: per-rank timing off (timing.rank_timing: false)\n");
  CHECK(to_json(find_slow_links(off))["verdict"] == "not_measured");
}

TEST_CASE("slow links: an oversubscribed launch's probe is left out", "[slow_links]") {
  json crowded = report_with(3, 10);
  crowded["provenance"]["launches"][0]["hosts"][0]["topology"]["cores"] = 1;
  crowded["provenance"]["launches"][0]["hosts"][0]["ranks"] = {0, 1};  // 2 ranks on 1 core
  const LinkFindings f = find_slow_links(crowded);
  CHECK(f.launches_oversubscribed == 1);
  CHECK(f.verdict == LinkVerdict::not_measured);
}
