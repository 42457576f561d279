// SPDX-License-Identifier: BSD-3-Clause
// The run's stragglers (docs/report.md#stragglers): the ranks and hosts that
// held up most calls of some case (each case's rank_timing.stragglers),
// gathered over the report so that a host slow across collectives is said
// once, as a host, with the cases, how often and by how much. Cases of an
// oversubscribed launch are left out: there ranks wait for cores, and who
// waited says nothing of a node.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct NamedStraggler {
  // "" where the case's launch ran on one host (or named none): then one entry per rank.
  std::string host;
  std::set<int> ranks;        // the ranks of it named in some case
  std::set<std::string> kinds;  // late_arrival, slow_progress
  std::vector<std::string> cases;  // "allreduce 64B default, 4 ranks (late arrival 95%)", in report order
  double share_low = 1;   // the smallest lower 95% bound of a share over its cases
  double share_high = 0;  // the largest share
  double excess_s = 0;    // the median over its cases of the median lateness
};

struct StragglerFindings {
  int judged_cases = 0;           // cases with per-rank timing, on launches not oversubscribed
  int oversubscribed_cases = 0;   // cases with per-rank timing left out
  std::vector<NamedStraggler> named;  // hosts (or ranks) named in most cases first
};

StragglerFindings find_stragglers(const nlohmann::json& report);

// The table's and terminal's lines: "" where no case has per-rank timing
// (reports from before it), "stragglers: none ..." where none was named.
std::string stragglers_text(const StragglerFindings& f);

}  // namespace pico
