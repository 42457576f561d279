// SPDX-License-Identifier: BSD-3-Clause
// GoalRankWriter: calls chained on one rank (compute gap, call, join, next
// call), tags moved into each call's range, sub-communicator ranks mapped,
// and reductions written as time.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>
#include <string>

#include "collectives/goal_writer.hpp"
#include "collectives/reference/recording.hpp"
#include "collectives/schedule_export.hpp"

using namespace pico;

namespace {

std::string text_of(const schedule_text::TextBuffer& t) { return std::string(t.view()); }

}  // namespace

TEST_CASE("two chained calls: gap, call, join, call, with disjoint tags", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "ring", 3, 3, Dtype::float32};
  const std::uint64_t span = tag_span(req);
  CHECK(span == 2 * 3 + 1 + 1);
  const auto ranks = reference::record_all(req);
  schedule_text::TextBuffer text;
  GoalRankWriter w(text, 0);
  w.calc(5000);
  w.collective(ranks[0], 100, span, 10);
  w.join();
  w.collective(ranks[0], 100 + span, span, 10);
  w.finish();
  const std::string goal = text_of(text);
  CAPTURE(goal);
  // The gap first; the call's first step requires it.
  CHECK(goal.rfind("rank 0 {\nl0: calc 5000\nl1: send 4b to 1 tag 100\nl1 requires l0\n", 0) == 0);
  // Reductions of 4 bytes at 10 ps per byte.
  CHECK(goal.find(": calc 40\n") != std::string::npos);
  // The ring ends in a step of a send and a receive: the join requires both,
  // and the second call's first operations require the join alone.
  const std::regex join(R"((l\d+): calc 0\n\1 requires (l\d+)\n\1 requires (l\d+)\n(l\d+): send 4b to 1 tag 108\n\4 requires \1\n)");
  CHECK(std::regex_search(goal, join));
  // Tags: the first call's in [100, 108), the second's in [108, 116).
  std::smatch m;
  std::string rest = goal;
  int first = 0, second = 0;
  static const std::regex tag(R"( tag (\d+))");
  while (std::regex_search(rest, m, tag)) {
    const int t = std::stoi(m[1]);
    REQUIRE(t >= 100);
    REQUIRE(t < 116);
    (t < 108 ? first : second)++;
    rest = m.suffix();
  }
  CHECK(first == 8);
  CHECK(second == 8);
  CHECK(goal.substr(goal.size() - 2) == "}\n");
}

TEST_CASE("a sub-communicator's ranks are written as the ranks they map to", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "recursive_doubling", 2, 2, Dtype::float32};
  const auto ranks = reference::record_all(req);
  const int world[] = {5, 9};
  schedule_text::TextBuffer text;
  GoalRankWriter w(text, 5);
  w.collective(ranks[0], 0, tag_span(req), 1, world);
  w.finish();
  const std::string goal = text_of(text);
  CHECK(goal.find("send 8b to 9 tag 1") != std::string::npos);
  CHECK(goal.find("recv 8b from 9 tag 1") != std::string::npos);
}

TEST_CASE("a tag outside the call's span is a logic error, not GOAL that mismatches", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "ring", 4, 4, Dtype::float32};
  const auto ranks = reference::record_all(req);
  schedule_text::TextBuffer text;
  GoalRankWriter w(text, 0);
  CHECK_THROWS_AS(w.collective(ranks[0], 0, 3, 1), std::logic_error);
  CHECK_THROWS_AS(w.collective(ranks[0], kMaxGoalTag, tag_span(req), 1), std::logic_error);
}

TEST_CASE("write_goal's reductions default to 250 ps per byte", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "ring", 2, 4, Dtype::float32};
  std::ostringstream out;
  write_goal(req, out);
  CHECK(out.str().find(": calc 2000\n") != std::string::npos);  // 8 bytes reduced
  std::ostringstream far;
  CHECK_THROWS_AS(write_goal(req, far, 0, GoalOptions{.reduce_ps_per_byte = 1, .tag_base = kMaxGoalTag}),
                  std::invalid_argument);
}
