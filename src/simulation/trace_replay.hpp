// SPDX-License-Identifier: BSD-3-Clause
// Writes a traced application (simulation/trace_program.hpp) as one GOAL
// program (pico replay TRACE_DIR): per rank, each compute gap as `calc`, each
// message as the send or receive it was, each collective call expanded by the
// reference algorithm chosen for its collective, communicator size and bytes.
//
// Dependencies follow MPI's: a blocking call waits for what came before it
// and what follows waits for it; a non-blocking call (point to point or
// collective) starts after what came before, and only its wait makes later
// work depend on it, so communication overlaps compute as the application
// let it. Progress is the simulator's: a non-blocking collective advances
// without the application calling MPI.
//
// Tags: every collective call takes a range of its own in [0, 2^30) (in the
// program's collective order, which its members agree on); every message a
// tag of its own in [2^30, 2^31) (its number among the messages from its
// source to its destination), so LogGOPSim matches exactly the pairs the
// trace matched.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "simulation/replay.hpp"
#include "simulation/trace_program.hpp"

namespace pico {

// What every rank's writer shares: each collective's schedule request and tag
// range, each message's tag (the GOAL and the Chakra writers alike).
struct TracePlan {
  std::vector<reference::ScheduleRequest> requests;
  std::vector<std::uint64_t> tag_base, span;
  std::vector<std::uint32_t> message_tag;

  TracePlan(const TraceProgram& t, const std::vector<std::string>& algorithms, const ReplayOptions& o);
};

// One rank's part of a program's collective calls as the writers expand them:
// each recorded once per distinct request and place in the communicator, and
// the rank's place in each communicator found once. One per writer thread;
// begin_rank() before each rank.
class TraceSchedules {
 public:
  TraceSchedules(const TraceProgram& t, const TracePlan& plan) : t_(t), plan_(plan) {}
  void begin_rank(int rank);
  // The rank's schedule of collective call i.
  const transport::RankSchedule& of(std::size_t i);

 private:
  using Key = std::tuple<Collective, std::string, std::uint64_t, Dtype, int, int, std::string, int>;
  const TraceProgram& t_;
  const TracePlan& plan_;
  int rank_ = 0;
  std::map<int, int> comm_rank_;  // of rank_, by communicator
  std::map<Key, transport::RankSchedule> cache_;
};

// The algorithm of each of the program's collective calls. Throws
// InputError (where = "pico replay") when a choice is no reference algorithm.
std::vector<std::string> choose_trace_algorithms(const TraceProgram& t, const AlgorithmChoice& choose);

// The whole GOAL program.
void write_trace_goal(const TraceProgram& t, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                      std::ostream& out);

// About how many bytes write_trace_goal writes: the first and last ranks'
// bytes per operation times every rank's operations.
std::uint64_t estimate_trace_goal_bytes(const TraceProgram& t, const std::vector<std::string>& algorithms,
                                        const ReplayOptions& o);

}  // namespace pico
