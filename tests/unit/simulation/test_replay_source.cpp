// SPDX-License-Identifier: BSD-3-Clause
// pico replay's sources and formats (simulation/replay_source.hpp,
// simulation/replay_format.hpp): a workload and a trace answer the same
// interface as the writers they wrap, and the format table is what --format offers.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "simulation/replay_format.hpp"
#include "simulation/replay_source.hpp"
#include "simulation/trace_replay.hpp"
#include "simulation/workload_program.hpp"
#include "support/input_error.hpp"

using namespace pico;

namespace {

const std::string kData = PICO_TEST_DATA_DIR;

ReplayInput input(const std::string& path, double compute_scale = 1) {
  ReplayInput in;
  in.path = path;
  in.compute_scale = compute_scale;
  return in;
}

}  // namespace

TEST_CASE("replay source: a workload reads as the workload writers write it", "[replay]") {
  const Workload w = load_workload_yaml(kData + "/chakra/workload.yaml");
  const std::unique_ptr<ReplaySource> source = open_replay_source(input(kData + "/chakra/workload.yaml"));
  CHECK(source->ranks() == w.ranks);
  CHECK(source->communication_calls() == w.communication_calls());
  CHECK_FALSE(source->traced_s());
  const std::vector<std::string> algorithms = source->choose(atlahs_choice());
  CHECK(algorithms == choose_algorithms(w, atlahs_choice()));
  const ReplayOptions o;
  CHECK(source->estimate_bytes(algorithms, o) == estimate_replay_bytes(w, algorithms, o));
  std::ostringstream goal, expected;
  source->write_goal(algorithms, o, goal);
  write_replay_goal(w, algorithms, o, expected);
  CHECK(goal.str() == expected.str());
  const ReplayProgram p = source->program(algorithms);
  const WorkloadProgram wp = workload_program(w, algorithms);
  CHECK(p.algorithms == wp.algorithms);
  CHECK(p.program->collectives.size() == wp.program.collectives.size());
  const std::vector<std::string> lines = source->describe(algorithms);
  REQUIRE_FALSE(lines.empty());
  for (const std::string& line : lines) CHECK_THAT(line, Catch::EndsWith("per iteration)"));
}

TEST_CASE("replay source: a trace is its own program, its GOAL the trace writer's", "[replay]") {
  const std::string dir = kData + "/traces/split4";
  REQUIRE(is_trace_path(dir));
  const std::unique_ptr<ReplaySource> source = open_replay_source(input(dir, 2));
  TraceProgram t = load_trace(dir, {});
  t.scale_compute(2);
  CHECK(source->ranks() == t.size());
  CHECK(source->communication_calls() == t.collectives.size() + t.messages.size());
  REQUIRE(source->traced_s());
  CHECK(*source->traced_s() == Approx(t.traced_runtime_s()));
  const std::vector<std::string> algorithms = source->choose(atlahs_choice());
  CHECK(algorithms == choose_trace_algorithms(t, atlahs_choice()));
  std::ostringstream goal, expected;
  source->write_goal(algorithms, {}, goal);
  write_trace_goal(t, algorithms, {}, expected);
  CHECK(goal.str() == expected.str());
  const ReplayProgram p = source->program(algorithms);
  CHECK(p.algorithms == algorithms);
  CHECK(p.program->messages.size() == t.messages.size());
  // The first line counts what the trace holds; the rest are choices.
  CHECK_THAT(source->describe(algorithms).front(), Catch::Contains("collective calls"));
}

TEST_CASE("replay source: a workload file, llm or traces, and llm needs no file", "[replay]") {
  CHECK_FALSE(is_trace_path("llm"));
  CHECK_FALSE(is_trace_path(kData + "/chakra/workload.yaml"));
  CHECK_FALSE(is_trace_path(kData + "/no-such-dir"));
  LlmStep step;
  step.dp = 4;
  ReplayInput llm = input("llm");
  llm.llm = step;
  CHECK(open_replay_source(llm)->ranks() == 4);
  CHECK_THROWS_AS(open_replay_source(input(kData + "/no-such.yaml")), InputError);
}

TEST_CASE("choice lines: twelve at most, then how many more", "[replay]") {
  ChoiceCounts calls;
  for (int np = 2; np < 2 + 15; ++np) calls[{Collective::allreduce, np, 1024, "ring"}] = 1;
  const std::vector<std::string> lines = choice_lines(calls, " per iteration");
  REQUIRE(lines.size() == 13);
  CHECK(lines.front() == "  allreduce 1KiB on 2 ranks: ring (1 call per iteration)");
  CHECK(lines.back() == "  ... and 3 more");
}

TEST_CASE("replay formats: one row each, goal first, each complete", "[replay]") {
  const auto& formats = replay_formats();
  REQUIRE(formats.size() >= 2);
  CHECK(formats.front()->name == "goal");
  std::set<std::string_view> names;
  for (const ReplayFormat* f : formats) {
    CHECK(names.insert(f->name).second);
    CHECK(!f->description.empty());
    CHECK(!f->output_hint.empty());
    CHECK(f->write != nullptr);
    CHECK(&replay_format(f->name) == f);
  }
  CHECK(replay_format("goal").simulates);
  CHECK_FALSE(replay_format("chakra").simulates);
  CHECK_THROWS_AS(replay_format("no-such-format"), InputError);
}
