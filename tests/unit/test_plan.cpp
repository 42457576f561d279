#include <catch2/catch.hpp>

#include "config/experiment.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "plan/plan.hpp"
#include "config_errors.hpp"

using namespace pico;

namespace {
Experiment quickstart() { return load_experiment(std::string(PICO_SOURCE_DIR) + "/configs/quickstart.yaml"); }
}  // namespace

TEST_CASE("the quickstart expands to 163 cases in one launch group", "[plan]") {
  const Plan plan = make_plan(quickstart());
  // 9 payload collectives x 18 sizes (8 B .. 1 MiB) + 1 barrier.
  CHECK(plan.cases.size() == 163);
  CHECK(plan.skipped.empty());
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].np == 2);
  CHECK(plan.groups[0].cases.size() == 163);
  for (std::size_t i = 0; i < plan.cases.size(); ++i) CHECK(plan.cases[i].index == static_cast<int>(i));
  const Case& first = plan.cases.front();
  CHECK(first.collective == Collective::allreduce);
  CHECK(first.count == 2);  // 8 B of float32
  CHECK(first.op == Op::sum);
  const Case& bcast = plan.cases[18];
  CHECK(bcast.collective == Collective::bcast);
  CHECK(bcast.op == Op::none);
}

TEST_CASE("case ids are stable and depend on every defining field", "[plan]") {
  Case c;
  c.collective = Collective::allreduce;
  c.dtype = Dtype::float32;
  c.op = Op::sum;
  c.count = 256;
  c.bytes = 1024;
  c.np = 4;
  // A literal: changing the hash silently would orphan every stored result.
  CHECK(compute_case_id(c) == "9b9b72f226a2456f");
  const std::string id = compute_case_id(c);
  Case d = c;
  d.in_place = true;
  CHECK(compute_case_id(d) != id);
  d = c;
  d.np = 5;
  CHECK(compute_case_id(d) != id);
  d = c;
  d.index = 99;  // position in the plan is not part of identity
  CHECK(compute_case_id(d) == id);
  c.case_id = id;
  CHECK(case_from_json(case_to_json(c)).case_id == id);
  CHECK(compute_case_id(case_from_json(case_to_json(c))) == id);
}

TEST_CASE("sizes below one element are skipped, duplicates collapse, in-place only where MPI has it", "[plan]") {
  Experiment e = parse_experiment(
      "collectives: [allreduce, bcast, barrier]\n"
      "sizes: [1B, 4B, 8B, 9B]\n"
      "dtypes: [float64]\n"
      "ops: [sum, max]\n"
      "processes: [1, 3]\n"
      "in_place: both\n",
      "test.yaml");
  const Plan plan = make_plan(e);
  // Per np: allreduce 2 ops x 2 in_place x {skip 1B, skip 4B (same id), 8B, 9B->8B dup} = 2x2x2 = 8;
  // bcast (no in-place) {skip, 8B} = 2; barrier 1  => 11 per np, 22 in all.
  CHECK(plan.cases.size() == 22);
  CHECK(plan.skipped.size() == 2 * (4 + 1));
  REQUIRE(plan.groups.size() == 2);
  CHECK(plan.groups[0].np == 1);
  CHECK(plan.groups[1].np == 3);
  CHECK(plan.groups[0].cases.size() == 6);
  CHECK(plan.skipped[0].reason == "size 1B is smaller than one float64 element");
  for (const auto& c : plan.cases)
    if (c.collective == Collective::bcast) CHECK_FALSE(c.in_place);
}

TEST_CASE("launch requests round-trip through JSON", "[plan]") {
  const Plan plan = make_plan(quickstart());
  LaunchRequest r{3, 2, {{"X", "1"}}, plan.timing, true, plan.groups[0].cases, InstrumentationSpec{true, {"perf::TASK-CLOCK"}, 7},
                  MpiIdentity{"mpich", "4.0.2"}};
  const LaunchRequest back = launch_request_from_json(launch_request_to_json(r));
  CHECK(back.launch == 3);
  CHECK(back.planned_mpi == MpiIdentity{"mpich", "4.0.2"});
  CHECK(back.env.at("X") == "1");
  CHECK(back.instrumentation.phases);
  CHECK(back.instrumentation.calls == 7);
  CHECK(back.instrumentation.papi == std::vector<std::string>{"perf::TASK-CLOCK"});
  CHECK(back.cases.size() == r.cases.size());
  CHECK(back.timing.time_budget_s == r.timing.time_budget_s);
  CHECK(back.cases[17].case_id == r.cases[17].case_id);
}

TEST_CASE("a launch request carries the MPI library the plan was made for", "[plan][mpi-identity]") {
  const Plan plan = make_plan(quickstart(), PlanTarget{"openmpi", "4.1.4"});
  const LaunchRequest r = launch_request_for(5, plan.groups[0], {plan.groups[0].cases[0]}, plan, PlanTarget{"openmpi", "4.1.4"});
  CHECK(r.launch == 5);
  CHECK(r.np == plan.groups[0].np);
  CHECK(r.cases.size() == 1);
  CHECK(r.planned_mpi == MpiIdentity{"openmpi", "4.1.4"});
  // A launch file without it (written before pico recorded it) plans for an unknown library: nothing to check.
  auto j = launch_request_to_json(r);
  j.erase("planned_mpi");
  CHECK(launch_request_from_json(j).planned_mpi == MpiIdentity{});
}

TEST_CASE("mpirun command lines", "[launch]") {
  Platform p;
  p.launcher.args = {"--bind-to", "core"};
  p.env = {{"UCX_TLS", "self,sm"}};
  const auto as_root = launch_command(p, "openmpi", 4, "/w", "/d/launch-0.json", "/d", HostFacts{true, 2});
  CHECK(as_root.argv == std::vector<std::string>{"mpirun", "-np", "4", "--allow-run-as-root", "--oversubscribe",
                                                 "--bind-to", "core", "/w", "--launch", "/d/launch-0.json", "--out",
                                                 "/d"});
  CHECK(as_root.env.at("UCX_TLS") == "self,sm");
  const auto user = launch_command(p, "openmpi", 2, "/w", "f", "d", HostFacts{false, 2});
  CHECK(user.argv == std::vector<std::string>{"mpirun", "-np", "2", "--bind-to", "core", "/w", "--launch", "f",
                                              "--out", "d"});
  CHECK(shell_join({"a b", "it's", "plain"}) == "'a b' 'it'\\''s' plain");
}

TEST_CASE("a direct launch starts the worker alone, one process per launch", "[launch]") {
  const Platform p = parse_platform("name: d\nscheduler: local\nlauncher: {kind: direct, args: [--x]}\n", "d.yaml");
  CHECK(p.launcher.command == "mpirun");  // asked --version only
  const auto cmd = launch_command(p, "openmpi", 1, "/w", "f", "d", HostFacts{true, 1});
  CHECK(cmd.argv == std::vector<std::string>{"--x", "/w", "--launch", "f", "--out", "d"});
  CHECK_NOTHROW(check_launches_fit(p, {1, 1}));
  try {
    check_launches_fit(p, {1, 2});
    FAIL("a direct launch of 2 processes was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.file == "d.yaml");
    CHECK_THAT(e.message, Catch::Matchers::Contains("one process per launch, but a launch of this experiment needs 2"));
  }
  CHECK(test::platform_error("name: d\nscheduler: slurm\nslurm: {partition: p}\nlauncher: {kind: direct}\n")
            .message.find("launcher kind direct starts the worker on this host") != std::string::npos);
}

TEST_CASE("crash details are read from the mpirun log", "[launch]") {
  CHECK(crash_detail_from_log("...\nmpirun noticed that process rank 1 with PID 0 on node vm exited on signal 11 "
                              "(Segmentation fault).\n") == "rank 1 exited on signal 11 (Segmentation fault)");
  CHECK(crash_detail_from_log("MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD") ==
        "rank 2 called MPI_Abort");
  CHECK(crash_detail_from_log("nothing here").empty());
}

TEST_CASE("an in-place-only experiment records collectives without an in-place form as skipped", "[plan]") {
  const Plan plan = make_plan(parse_experiment("collectives: [bcast, allreduce]\nsizes: [8B]\nin_place: true\n", "t.yaml"));
  REQUIRE(plan.cases.size() == 2);
  REQUIRE(plan.skipped.size() == 1);
  CHECK(plan.skipped[0].c.collective == Collective::bcast);
  CHECK(plan.skipped[0].reason == "MPI defines no in-place form of bcast");
  CHECK(plan.groups[0].cases.size() == 1);
  CHECK(plan.groups[0].cases[0].in_place);
}
