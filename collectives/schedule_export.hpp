// SPDX-License-Identifier: BSD-3-Clause
// Writes a reference algorithm's P-rank schedule for network simulators:
// GOAL (LogGOPSim, ATLAHS) or pico's JSON. Streams rank by rank: each rank
// is recorded alone and formatted on one of `threads` workers (0: one per
// hardware thread), and the texts are written in rank order, so memory holds
// one rank's operations and two ranks' texts per worker however large P is. The output
// does not depend on `threads`.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string_view>
#include <vector>

#include "collectives/reference/recording.hpp"
#include "core/format_args.hpp"

namespace pico {

// How GOAL expresses time and tags (collectives/goal_writer.hpp): LogGOPSim
// reads integers in one unit, so time is in picoseconds.
struct GoalOptions {
  // A local reduction of n bytes is `calc round(n x reduce_ps_per_byte)`: the
  // model's reduction cost (pico fit), or a default of 4 GB/s.
  double reduce_ps_per_byte = 250;
  // A pair exchange's messages are written this many times their size
  // (GoalRankWriter::charge_exchanges): the model's exchange_factor.
  double exchange_factor = 1;
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

// pico schedule's formats, one descriptor each (as pico export's,
// export/export_format.hpp): its name, description, the flags it takes
// beside the verb's own, and its writer, which reads them.
struct ScheduleFormat {
  std::string_view name;
  std::string_view description;
  std::span<const FormatFlag> flags;
  // Throws InputError (WHERE the flag) for a flag value the request cannot
  // take, std::invalid_argument for a request that cannot be recorded.
  void (*write)(const reference::ScheduleRequest& req, const FormatArgs& args, std::ostream& out, int threads);
};

// Every format, in the order `pico schedule --help` lists them.
const std::vector<const ScheduleFormat*>& schedule_formats();
// The format named, or InputError naming the choices (WHERE "--format").
const ScheduleFormat& schedule_format(std::string_view name);

}  // namespace pico
