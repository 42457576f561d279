// SPDX-License-Identifier: BSD-3-Clause
// Writes a workload (simulation/workload.hpp) as one GOAL program for all its
// ranks (pico replay): per rank, each call's compute gap as `calc`, the call
// expanded by the reference algorithm chosen for its collective, group size
// and bytes (recorded for the rank's place in its group, peers mapped to world
// ranks), and a join after it, so the next gap waits for the whole call.
//
// Tags: calls take consecutive ranges [base, base + tag_span) in program
// order, which every rank sees alike; the counter wraps to 0 before passing
// GOAL's largest tag, so a call reuses tags only ~2^31 tags of calls later.
//
// Streamed and parallel: ranks are formatted on threads and written in order
// (collectives/schedule_ordered.hpp); a rank's schedules are recorded once per
// distinct (call, algorithm, rank in group) and reused across iterations.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "collectives/reference/recording.hpp"
#include "simulation/workload.hpp"

namespace pico {

// The reference algorithm for a collective on `comm_size` ranks of `bytes` per rank.
using AlgorithmChoice = std::function<std::string(Collective, int comm_size, std::uint64_t bytes)>;

// ATLAHS's fixed expansion (one algorithm per collective, whatever the size):
// the baseline a tuned choice is compared with.
AlgorithmChoice atlahs_choice();

// `fixed[c]` for the collectives it names, else `fallback`'s.
AlgorithmChoice fixed_choice(std::map<Collective, std::string> fixed, AlgorithmChoice fallback);

struct ReplayOptions {
  double reduce_ps_per_byte = 250;
  std::uint64_t segment_bytes = 64 * 1024;  // for segmented algorithms
  int threads = 0;                          // 0: one per hardware thread
};

// The schedule request of one collective call of `bytes` per rank on a group
// of `np` ranks (whole float32 elements where the bytes divide by 4, else
// int8; `segment_bytes` for the segmented algorithms).
reference::ScheduleRequest collective_request(Collective collective, std::uint64_t bytes, int root,
                                              const std::string& algorithm, int np, std::uint64_t segment_bytes);

// The algorithm of each call of one iteration, from `choose`. Throws
// InputError (where = "pico replay") when a choice is no reference algorithm.
std::vector<std::string> choose_algorithms(const Workload& w, const AlgorithmChoice& choose);

// The GOAL text of the ranks in [first, last), without the num_ranks line.
void write_replay_ranks(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                        int first, int last, std::ostream& out);

// The whole GOAL program.
void write_replay_goal(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                       std::ostream& out);

// About how many bytes write_replay_goal writes: rank 0's text (and the last
// rank's) times the ranks.
std::uint64_t estimate_replay_bytes(const Workload& w, const std::vector<std::string>& algorithms,
                                    const ReplayOptions& o);

}  // namespace pico
