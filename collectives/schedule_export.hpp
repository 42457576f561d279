// SPDX-License-Identifier: BSD-3-Clause
// Writes a reference algorithm's P-rank schedule for network simulators:
// GOAL (LogGOPSim, ATLAHS) or pico's JSON. Streams rank by rank: each rank
// is recorded alone and formatted on one of `threads` workers (0: one per
// hardware thread), and the texts are written in rank order, so memory holds
// one rank's operations and two ranks' texts per worker however large P is. The output
// does not depend on `threads`.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "collectives/reference/recording.hpp"

namespace pico {

enum class ScheduleFormat { goal, json };

std::optional<ScheduleFormat> parse_schedule_format(std::string_view s);

// How GOAL expresses time and tags (collectives/goal_writer.hpp): LogGOPSim
// reads integers in one unit, so time is in picoseconds.
struct GoalOptions {
  // A local reduction of n bytes is `calc round(n x reduce_ps_per_byte)`: the
  // model's reduction cost (pico fit), or a default of 4 GB/s.
  double reduce_ps_per_byte = 250;
  // The call's tags are tag_base + [0, tag_span(req)): give chained calls disjoint ranges.
  std::uint64_t tag_base = 0;
};

// GOAL: `num_ranks P`, then per rank `rank r { ... }` with one labelled
// operation per line (`lN: send <bytes>b to <peer> tag <t>`, `recv ... from`,
// `calc <ps>`) and `lA requires lB` for program order (GoalRankWriter).
// Throws std::invalid_argument when the request's tags would pass kMaxGoalTag.
void write_goal(const reference::ScheduleRequest& req, std::ostream& out, int threads = 0,
                const GoalOptions& options = {});

// JSON: the request's fields and `ranks: [{rank, phases, ops: [{id, kind,
// peer, bytes, tag, step, phase, deps}]}]`, every recorded operation included.
void write_json(const reference::ScheduleRequest& req, std::ostream& out, int threads = 0);

void write_schedule(const reference::ScheduleRequest& req, ScheduleFormat format, std::ostream& out,
                    int threads = 0, const GoalOptions& goal = {});

}  // namespace pico
