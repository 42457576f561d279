// SPDX-License-Identifier: BSD-3-Clause
// The run's stragglers (docs/report.md#stragglers): the ranks and hosts that
// held up most calls of some case (each case's rank_timing.stragglers),
// gathered over the report so that a host slow across collectives is said
// once, as a host, with the cases, how often and by how much. Cases of an
// oversubscribed launch are left out: there ranks wait for cores, and who
// waited says nothing of a node. A host (or rank) is named for the run only
// where it was named in more of the cases that could name it than chance
// would give: a uniform run names some host now and then (a noise burst over
// one case, a rank last by the algorithm's own order), 14 of 400 cases on the
// emulated 2-node cluster; those are listed apart, as within chance. In core
// because both ends need it: report.json keeps it (`stragglers`,
// src/analysis) and pico report draws it (reports/).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rank_timing.hpp"

namespace pico {

// One case in which a straggler was named.
struct StragglerCase {
  std::string case_id;
  std::string collective;
  std::uint64_t bytes = 0;
  std::string algorithm;
  int np = 0;
  int rank = 0;
  std::string kind;  // kLateArrival | kSlowProgress
  Share share;
  double excess_s = 0;
};

struct NamedStraggler {
  // "" where the case's launch ran on one host (or named none): then one entry per rank.
  std::string host;
  std::set<int> ranks;             // the ranks of it named in some case
  std::set<std::string> kinds;     // late_arrival, slow_progress
  std::vector<StragglerCase> cases;  // one per case (its largest share where several of its ranks were named)
  double share_low = 1;   // the smallest lower 95% bound of a share over its cases
  double share_high = 0;  // the largest share
  Share pooled;           // its late calls over all calls of its cases, with Wilson's interval
  double excess_s = 0;    // the median over its cases of the median lateness
  int eligible_cases = 0;  // the judged cases whose launch had it (the host, or the rank on one host)
  double p_chance = 1;     // the chance of being named in cases.size() or more of them on a uniform run
};

// The run-level test: a case of a uniform run names some host (or rank), any
// of them, with a chance of at most kChanceCaseShare (measured: 14 of 400
// cases on the emulated 2-node cluster, docs/report.md#stragglers). One named
// in k of its n cases is a straggler of the run where
// P(Binomial(n, kChanceCaseShare) >= k) is at most kRunStragglerAlpha. The
// chance is the whole case's, not one host's share of it, so where chance
// spreads its names over many hosts the test is only stricter: no division
// among them is needed.
inline constexpr double kChanceCaseShare = 0.05;
inline constexpr double kRunStragglerAlpha = 0.01;

struct StragglerFindings {
  int judged_cases = 0;           // cases with per-rank timing, on launches not oversubscribed
  int oversubscribed_cases = 0;   // cases with per-rank timing left out
  int unmeasured_cases = 0;       // cases measured with timing.rank_timing off: stragglers not measured
  std::vector<NamedStraggler> named;          // the run's stragglers, named in most cases first
  std::vector<NamedStraggler> within_chance;  // named in some cases, no more often than chance
};

StragglerFindings find_stragglers(const nlohmann::json& report);

// The report's `stragglers`; null where no case has per-rank timing (nothing
// judged or left out) and none had it turned off.
nlohmann::json to_json(const StragglerFindings& f);

}  // namespace pico
