// Writes a reference algorithm's P-rank schedule for network simulators:
// GOAL (LogGOPSim, ATLAHS) or pico's JSON. Streams rank by rank: each rank
// is recorded alone and formatted on one of `threads` workers (0: one per
// hardware thread), and the texts are written in rank order, so memory holds
// one rank's operations and two ranks' texts per worker however large P is. The output
// does not depend on `threads`.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "collectives/reference/recording.hpp"

namespace pico {

enum class ScheduleFormat { goal, json };

std::optional<ScheduleFormat> parse_schedule_format(std::string_view s);

// GOAL: `num_ranks P`, then per rank `rank r { ... }` with one labelled
// operation per line (`lN: send <bytes>b to <peer> tag <t>`, `recv ... from`,
// `calc <bytes reduced>`) and `lA requires lB` for program order: every
// operation requires each operation of the rank's previous step. Local
// copies are not written (they cost no network time); a step of m
// operations after a step of k operations gets a `calc 0` join node when
// that takes fewer lines than k x m requires.
void write_goal(const reference::ScheduleRequest& req, std::ostream& out, int threads = 0);

// JSON: the request's fields and `ranks: [{rank, phases, ops: [{id, kind,
// peer, bytes, tag, step, phase, deps}]}]`, every recorded operation included.
void write_json(const reference::ScheduleRequest& req, std::ostream& out, int threads = 0);

void write_schedule(const reference::ScheduleRequest& req, ScheduleFormat format, std::ostream& out,
                    int threads = 0);

}  // namespace pico
