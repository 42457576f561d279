// SPDX-License-Identifier: BSD-3-Clause
// The pairwise link probe (docs/report.md#slow-links), as nccl-tests'
// per-GPU-pair diagnostics: once per launch, beside the clock
// synchronisation, every pair of ranks exchanges a fixed message, pairs
// scheduled as a round-robin tournament so that disjoint pairs run at once.
// A slow link shows where it is, not where its delay lands: the per-call
// straggler rule (core/run_stragglers.hpp) names the ranks downstream of it.
//
// What is pure lives here, so that both ends share it and it is tested on
// synthetic tables: the schedule, the per-host-pair table the worker records
// (provenance.launches[K].link_probe) and the run's verdict (`slow_links`).
// The exchanges themselves are the worker's (worker/link_probe.hpp).
//
// Cost model: the R = min(tournament rounds, kLinkProbeMaxRounds) rounds run
// (kLinkProbeWarmups + kLinkProbeRepetitions) times over (the tournament
// again each time, so that a pair's exchanges are apart in time), each round
// a harness barrier, then one exchange of kLinkProbeBytes each way per pair,
// all pairs of a round at once: about R x 4 x (log2(p) x alpha + alpha +
// S / beta), beta the slowest link of each round. On 4 ranks at 1 Gbit/s
// (1 MiB: 8.4 ms) 3 x 4 x 8.4 ms = 0.1 s (measured on the emulated cluster's
// 2 shared cores: 0.20-0.34 s); with one node at 100 Mbit/s every round waits
// for it (measured: 1.55-1.60 s, its exchanges 128 ms). Bounded by
// kLinkProbeMaxRounds whatever p: 32 x 4 x 8.4 ms = 1.1 s at 1 Gbit/s, about
// 5 ms on 100 Gbit/s. Above kLinkProbeMaxRounds + 1 ranks the rounds run are
// a sample (evenly spaced over the tournament): each rank meets 32 partners,
// not all, and the record says so (`rounds` < `tournament_rounds`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

// 1 MiB: long enough that the wire's rate, not its latency, sets the time (and
// above the emulated cluster's tbf burst of 256 KiB, which a shorter message
// would pass through at no rate at all).
inline constexpr std::int64_t kLinkProbeBytes = 1 << 20;
inline constexpr int kLinkProbeWarmups = 1;      // the first exchange of a pair pays for its connection
inline constexpr int kLinkProbeRepetitions = 3;  // timed; a rank keeps its best (noise only adds time)
inline constexpr int kLinkProbeMaxRounds = 32;
// A host is named when each of its inter-host links takes at least this many
// times the median of the links not touching it: half the others' speed,
// well past what a shared machine's noise gives a uniform cluster.
inline constexpr double kSlowLinkFactor = 2.0;

inline constexpr std::string_view kLinkProbeMethod =
    "round-robin tournament of pairwise MPI_Sendrecv exchanges on the harness communicator, a barrier before each; "
    "a pair's time: the larger of its two ranks' best over the timed repetitions";

// Rounds of a round-robin tournament of `ranks` (the circle method): ranks - 1
// where even, ranks where odd (each rank sits one round out); 0 below 2.
int tournament_rounds(int ranks);
// Rank's partner in round `round` of the tournament; -1 where it sits out.
int tournament_partner(int rank, int round, int ranks);
// The rounds the probe runs: all of them up to kLinkProbeMaxRounds, else that
// many evenly spaced. Empty below 2 ranks.
std::vector<int> probe_rounds(int ranks);

// One pair of hosts (a <= b; a == b: pairs of ranks on one host): the
// exchange times of its rank pairs.
struct HostLink {
  std::string a, b;
  int rank_pairs = 0;
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  bool intra_host() const { return a == b; }
};

// On rank 0: the host-pair table from every rank's best time per round run
// (rank-major: rank r's round k at r * rounds.size() + k; negative where it
// sat out), the ranks' hosts in rank order ("" where unknown: then each rank
// its own host "rank R").
std::vector<HostLink> host_links(const std::vector<double>& times, const std::vector<int>& rounds, int ranks,
                                 const std::vector<std::string>& hosts);

// The launch info's (and provenance.launches[K]'s) link_probe; duration_s:
// the probe's wall time on rank 0, its cost to the launch.
nlohmann::json link_probe_record(int ranks, const std::vector<int>& rounds, const std::vector<HostLink>& links,
                                 double duration_s);
std::vector<HostLink> host_links_from_json(const nlohmann::json& record);

// The run's verdict over its launches' probes.
enum class LinkVerdict {
  absent,            // no probe: a report from before it (nothing said)
  not_measured,      // per-rank timing off, or no inter-host link (one host)
  not_attributable,  // inter-host links, but no host with two of them and a link beside them to compare (2 hosts)
  none,              // every host judged, none slow
  named,             // one or more hosts named
};

// A host whose inter-host links are all at least kSlowLinkFactor times the
// median of the links not touching it.
struct SlowHost {
  std::string host;
  int links = 0;               // its inter-host links (host pairs)
  int agreeing = 0;            // of them, at least kSlowLinkFactor slower
  int rank_pairs = 0;          // the rank pairs measured on them
  double median_s = 0;         // median over its links of a link's median exchange
  double others_median_s = 0;  // median over the links not touching it
  double ratio = 0;            // median_s / others_median_s
  double min_ratio = 0;        // its fastest link's over others_median_s
};

struct LinkFindings {
  LinkVerdict verdict = LinkVerdict::absent;
  std::string reason;  // not_measured, not_attributable: why, in words
  int launches_probed = 0;
  int launches_oversubscribed = 0;  // probed but left out: ranks waited for cores
  std::int64_t bytes = kLinkProbeBytes;
  int hosts = 0;  // hosts with an inter-host link
  int inter_host_links = 0;
  int intra_host_links = 0;
  int judged_hosts = 0;
  double median_s = 0;  // median over inter-host links
  // Where none was named: the host nearest to it, by its median ratio, with
  // its fastest link's ratio (every link's must reach kSlowLinkFactor).
  std::string closest_host;
  double closest_ratio = 0;
  double closest_min_ratio = 0;
  std::vector<SlowHost> named;  // slowest first
};

// The verdict on one host-pair table (pure: the unit tests' synthetic tables).
LinkFindings judge_links(const std::vector<HostLink>& links);
// Over a report's launches (provenance.launches[K].link_probe), oversubscribed
// launches left out; a host pair measured by several launches counts the
// median of their medians.
LinkFindings find_slow_links(const nlohmann::json& report);

// The report's `slow_links`; null where absent.
nlohmann::json to_json(const LinkFindings& f);

}  // namespace pico
