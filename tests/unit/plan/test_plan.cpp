// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "config/experiment.hpp"
#include "plan/plan.hpp"
#include "config_errors.hpp"

using namespace pico;

namespace {
Experiment quickstart() { return load_experiment(std::string(PICO_SOURCE_DIR) + "/configs/quickstart.yaml"); }
}  // namespace

TEST_CASE("the quickstart expands to one case per collective, size, dtype and op, in one launch group", "[plan]") {
  const Experiment e = quickstart();
  // Counted from the file, so editing configs/quickstart.yaml does not break the test.
  std::size_t expected = 0;
  for (Collective c : e.collectives) {
    const CollectiveSpec& spec = spec_for(c);
    expected += spec.has_payload ? e.sizes.size() * e.dtypes.size() * (spec.has_op ? e.ops.size() : 1) : 1;
  }
  REQUIRE(e.processes == std::vector<int>{2});
  const Plan plan = make_plan(e);
  CHECK(plan.cases.size() == expected);
  CHECK(plan.skipped.empty());
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].np == 2);
  CHECK(plan.groups[0].cases.size() == expected);
  for (std::size_t i = 0; i < plan.cases.size(); ++i) CHECK(plan.cases[i].index == static_cast<int>(i));
  const Case& first = plan.cases.front();
  CHECK(first.collective == Collective::allreduce);
  CHECK(first.count == 2);  // 8 B of float32
  CHECK(first.op == Op::sum);
  const Case& bcast = plan.cases[e.sizes.size()];
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

TEST_CASE("a size that is no whole number of elements is warned of once, with what is measured (issue 65)", "[plan]") {
  Experiment e = parse_experiment(
      "collectives: [allreduce, bcast]\n"
      "sizes: [8B, 10B, 64KB]\n"
      "dtypes: [float32]\n"
      "ops: [sum, max]\n",
      "w.yaml");
  const Plan plan = make_plan(e);
  REQUIRE(plan.warnings.size() == 2);
  CHECK_THAT(plan.warnings[0], Catch::Matchers::StartsWith("w.yaml:2:18: '64KB' is 64000 B"));
  CHECK(plan.warnings[1] ==
        "w.yaml: size 10B is not a whole number of float32 elements (4 B each): 8B (2 elements) is measured");
  CHECK_THAT(warnings_text(plan), Catch::Matchers::Contains("pico: warning: w.yaml: size 10B is not a whole number"));
  CHECK(make_plan(parse_experiment("collectives: [allreduce]\nsizes: [8B, 64KiB]\n", "ok.yaml")).warnings.empty());
}

TEST_CASE("skipped cases are grouped by reason with counts, not one line each (issue 65)", "[plan]") {
  Experiment e = parse_experiment(
      "collectives: [allreduce, bcast]\n"
      "sizes: [1B, 8B]\n"
      "dtypes: [float32, float64]\n"
      "processes: [1, 3]\n",
      "test.yaml");
  const Plan plan = make_plan(e);
  REQUIRE(plan.skipped.size() == 8);  // 1B of 2 dtypes, 2 collectives, 2 process counts
  const std::string text = skipped_text(plan.skipped);
  CHECK_THAT(text, Catch::Matchers::StartsWith("skipped: 8 cases for 2 reasons:\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       fmt::format("     4 x size 1B is smaller than one float32 element ({}, ", plan.skipped[0].c.case_id)));
  CHECK_THAT(text, Catch::Matchers::Contains("     4 x size 1B is smaller than one float64 element ("));
  CHECK_THAT(text, Catch::Matchers::Contains(", ...)\n"));
  // A reason with its three case ids takes 113 columns: wrapped to 100, its further lines under the reason.
  std::size_t widest = 0, reasons = 0;
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
    widest = std::max(widest, end - at);
    if (text.compare(at, 9, "         ") != 0) ++reasons;  // a line of its own, not a reason's further one
  }
  CHECK(widest <= 100);
  CHECK(std::count(text.begin(), text.end(), '\n') > 3);
  CHECK(reasons == 3);
  CHECK_THAT(text, Catch::Matchers::Contains("element (" + plan.skipped[0].c.case_id + ", "));
  CHECK(skipped_text({}).empty());
}

TEST_CASE("launch requests round-trip through JSON", "[plan]") {
  const Plan plan = make_plan(quickstart());
  LaunchRequest r{3, 2, {{"X", "1"}}, plan.timing, true, plan.groups[0].cases, InstrumentationSpec{true, {"perf::TASK-CLOCK"}, 7},
                  MpiIdentity{"mpich", "4.0.2"},
                  {{"mpi", RanAlgorithmSource{"none", "no functions"}}},
                  {{"f_ring", AlgorithmFunction{Collective::bcast, "ring", ""}},
                   {"f_han", AlgorithmFunction{Collective::bcast, "han", "han"}}}};
  const LaunchRequest back = launch_request_from_json(launch_request_to_json(r));
  CHECK(back.ran_algorithm.at("mpi").why == "no functions");
  CHECK(back.algorithm_functions.at("f_ring").collective == Collective::bcast);
  CHECK(back.algorithm_functions.at("f_ring").algorithm == "ring");
  CHECK(back.algorithm_functions.at("f_ring").component.empty());
  CHECK(back.algorithm_functions.at("f_han").component == "han");
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

TEST_CASE("a launch request says how each backend's algorithm is seen running", "[plan][interposer]") {
  const Plan plan = make_plan(parse_experiment("collectives: [allreduce]\nsizes: [1KiB]\nbackends: [{library: mpi}, "
                                               "{library: reference, algorithms: [ring]}]\n", "t.yaml"),
                              PlanTarget{"openmpi", "4.1.4"});
  const LaunchRequest r = launch_request_for(0, plan.groups[0], plan.groups[0].cases, plan, PlanTarget{"openmpi", "4.1.4"});
  CHECK(r.ran_algorithm.at("mpi").source == "interposer");
  CHECK(r.ran_algorithm.at("reference").source == "pico");
  CHECK(r.algorithm_functions.at("ompi_coll_base_allreduce_intra_ring").algorithm == "ring");
  const Plan mpich = make_plan(parse_experiment("collectives: [allreduce]\nsizes: [1KiB]\n", "t.yaml"),
                               PlanTarget{"mpich", "4.0.2"});
  const LaunchRequest m = launch_request_for(0, mpich.groups[0], mpich.groups[0].cases, mpich, PlanTarget{"mpich", "4.0.2"});
  CHECK(m.ran_algorithm.at("mpi").source == "none");
  CHECK(m.algorithm_functions.empty());
}

TEST_CASE("algorithms: all sweeps the catalogue's parameter grid, a list of algorithms does not", "[plan]") {
  auto params_of = [](const char* algorithms) {
    const Plan plan = make_plan(parse_experiment(fmt::format("collectives: [bcast]\nsizes: [64KiB]\nprocesses: [4]\n"
                                                             "backends: [{{library: mpi, algorithms: {}}}]\n",
                                                             algorithms),
                                                 "t.yaml"),
                                PlanTarget{"openmpi", "4.1.4"});
    std::vector<std::map<std::string, double>> out;
    for (const auto& c : plan.cases)
      if (c.algorithm == "chain") out.push_back(c.params);
    return out;
  };
  const auto& grid = catalog_for("openmpi").parameter_grid;
  CHECK(params_of("all").size() == grid.at("segment_size").size() * grid.at("chain_fanout").size());
  CHECK(params_of("[chain]") == std::vector<std::map<std::string, double>>{{}});
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

TEST_CASE("an in-place-only experiment records collectives without an in-place form as skipped", "[plan]") {
  const Plan plan = make_plan(parse_experiment("collectives: [bcast, allreduce]\nsizes: [8B]\nin_place: true\n", "t.yaml"));
  REQUIRE(plan.cases.size() == 2);
  REQUIRE(plan.skipped.size() == 1);
  CHECK(plan.skipped[0].c.collective == Collective::bcast);
  CHECK(plan.skipped[0].reason == "MPI defines no in-place form of bcast");
  CHECK(plan.groups[0].cases.size() == 1);
  CHECK(plan.groups[0].cases[0].in_place);
}

TEST_CASE("counts whose buffers overflow 64 bits are skipped, never wrapped to a small buffer", "[plan]") {
  // 2^61 float64 elements are 2^64 bytes: count x element size alone overflows;
  // 2^58 of them fit (2^61 bytes), but not on 4 ranks (2^63 x 3 buffers).
  const Experiment e = parse_experiment(
      "collectives: [gather]\n"
      "counts: [2305843009213693952, 288230376151711744, 1024]\n"
      "dtypes: [float64]\n"
      "processes: [4]\n",
      "test.yaml");
  const Plan plan = make_plan(e);
  REQUIRE(plan.skipped.size() == 2);
  for (const auto& s : plan.skipped) CHECK_THAT(s.reason, Catch::Contains("more bytes than 64 bits can count"));
  CHECK(plan.skipped[0].c.bytes == 0);                                  // not 2^64 mod 2^64 pretending to be 0 B
  CHECK(plan.skipped[1].c.bytes == std::uint64_t{1} << 61);
}

TEST_CASE("counts past MPI's int are skipped for MPI, after the buffer rule", "[plan]") {
  // 2^31 int8 elements fit the buffers but not MPI's int count; the skip
  // rules run in order, so the count of the test above said "buffers" first.
  const Plan plan = make_plan(parse_experiment(
      "collectives: [allreduce]\ncounts: [2147483648, 2147483647]\ndtypes: [int8]\nprocesses: [2]\n", "t.yaml"));
  REQUIRE(plan.skipped.size() == 1);
  CHECK(plan.skipped[0].reason == "count exceeds the MPI int count range");
  CHECK(plan.skipped[0].c.count == 2147483648ULL);
  REQUIRE(plan.groups.size() == 1);
  REQUIRE(plan.groups[0].cases.size() == 1);
  CHECK(plan.groups[0].cases[0].count == 2147483647ULL);
}

TEST_CASE("repetitions: the plan N times, each in launches of its own, shuffled from the seed", "[plan]") {
  const char* text = "collectives: [allreduce, bcast]\nsizes: [8B, 1KiB, 64KiB]\nprocesses: [2, 4]\n";
  const Plan once = make_plan(parse_experiment(text, "t.yaml"));
  const Plan plan = make_plan(parse_experiment(std::string(text) + "repetitions: 3\nrepetition_seed: 7\n", "t.yaml"));
  REQUIRE(plan.cases.size() == 3 * once.cases.size());
  REQUIRE(plan.groups.size() == 3 * once.groups.size());
  std::set<std::string> keys;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    const Case& c = plan.cases[i];
    CHECK(c.index == static_cast<int>(i));
    CHECK(c.repetition == static_cast<int>(i / once.cases.size()));
    // The same case in every repetition: the same defining fields and id.
    CHECK(c.case_id == once.cases[i % once.cases.size()].case_id);
    keys.insert(run_key(c));
  }
  CHECK(keys.size() == plan.cases.size());
  for (const auto& g : plan.groups) {
    std::set<int> repetitions;
    for (const auto& c : g.cases) repetitions.insert(c.repetition);
    CHECK(repetitions.size() == 1);  // a launch never mixes repetitions
  }
  // The order is the seed's: the same seed gives the same plan, another seed another order.
  auto order = [](const Plan& p) {
    std::vector<std::string> ids;
    for (const auto& g : p.groups)
      for (const auto& c : g.cases) ids.push_back(run_key(c));
    return ids;
  };
  const Plan again = make_plan(parse_experiment(std::string(text) + "repetitions: 3\nrepetition_seed: 7\n", "t.yaml"));
  const Plan other = make_plan(parse_experiment(std::string(text) + "repetitions: 3\nrepetition_seed: 8\n", "t.yaml"));
  CHECK(order(again) == order(plan));
  CHECK(order(other) != order(plan));
  // plan.json keeps repetitions apart.
  const Plan read = plan_from_json(plan_to_json(plan));
  CHECK(order(read) == order(plan));
  CHECK(read.repetitions == 3);
  CHECK(read.repetition_seed == 7);
  CHECK_THROWS_AS(parse_experiment(std::string(text) + "repetitions: 0\n", "t.yaml"), InputError);
}

namespace {

// The cases of one collective in a plan of `backends` on `target`, by algorithm.
std::map<std::string, std::vector<Case>> cases_by_algorithm(const std::string& backends, Collective coll, int np,
                                                            const PlanTarget& target) {
  const Plan plan = make_plan(parse_experiment(fmt::format("collectives: [{}]\nsizes: [4B, 4KiB]\nprocesses: [{}]\n"
                                                           "backends: {}\n",
                                                           name(coll), np, backends),
                                               "t.yaml"),
                              target);
  std::map<std::string, std::vector<Case>> out;
  for (const auto& c : plan.cases) out[c.algorithm].push_back(c);
  return out;
}

bool skipped_in(const Plan& plan, const Case& c) {
  return std::any_of(plan.skipped.begin(), plan.skipped.end(), [&](const SkippedCase& s) { return s.c.case_id == c.case_id; });
}

}  // namespace

TEST_CASE("call: nonblocking sweeps the library's non-blocking algorithms through their own variables", "[plan][call]") {
  const PlanTarget openmpi{"openmpi", "4.1.4"};
  const auto ompi = cases_by_algorithm("[{library: mpi, call: nonblocking, algorithms: all}]", Collective::allreduce, 4,
                                       openmpi);
  CHECK(ompi.size() == 5);  // default, ring, binomial, rabenseifner, recursive_doubling
  for (const auto& [algorithm, cases] : ompi)
    for (const Case& c : cases) {
      INFO(algorithm);
      CHECK(c.selection.variable == "coll_libnbc_iallreduce_algorithm");
      CHECK(c.options.at("call") == "nonblocking");
    }
  CHECK(ompi.at("ring").front().selection.value == "1");
  // The persistent form runs libnbc's schedules too, chosen by the same variables.
  const auto persistent = cases_by_algorithm("[{library: mpi, call: persistent, algorithms: [binomial]}]",
                                             Collective::allreduce, 4, openmpi);
  CHECK(persistent.at("binomial").front().selection.variable == "coll_libnbc_iallreduce_algorithm");
  CHECK(persistent.at("binomial").front().options.at("call") == "persistent");
  CHECK(ompi.at("default").front().selection.value == "0");
  // The blocking entry keeps coll/tuned's variable and algorithms.
  const auto blocking = cases_by_algorithm("[{library: mpi, algorithms: all}]", Collective::allreduce, 4, openmpi);
  CHECK(blocking.at("default").front().selection.variable == "coll_tuned_allreduce_algorithm");
  CHECK_FALSE(blocking.contains("binomial"));
  // A collective libnbc offers no choice for runs as default only, with nothing written.
  const auto alltoall = cases_by_algorithm("[{library: mpi, call: nonblocking, algorithms: all}]", Collective::alltoall,
                                           4, openmpi);
  CHECK(alltoall.size() == 1);
  CHECK(alltoall.at("default").front().selection.variable.empty());
  // Outside the versions whose ids were checked, the algorithms are skipped with the range.
  const Plan five = make_plan(parse_experiment("collectives: [allreduce]\nsizes: [4KiB]\nprocesses: [4]\n"
                                               "backends: [{library: mpi, call: nonblocking, algorithms: [ring]}]\n",
                                               "t.yaml"),
                              PlanTarget{"openmpi", "6.0.0"});
  REQUIRE(five.skipped.size() == 1);
  CHECK_THAT(five.skipped[0].reason, Catch::Matchers::Contains(">=4.1,<6.0"));
}

TEST_CASE("on Open MPI 5 the default runs with han, forced tuned algorithms without", "[plan][openmpi5]") {
  const std::string yaml = "collectives: [allreduce]\nsizes: [4KiB]\nprocesses: [4]\n"
                           "backends: [{library: mpi, algorithms: [default, ring, guideline:reduce+bcast]}]\n";
  const Plan five = make_plan(parse_experiment(yaml, "t.yaml"), PlanTarget{"openmpi", "5.0.7"});
  REQUIRE(five.groups.size() == 2);  // one launch as users get the library, one with han kept out
  for (const LaunchGroup& g : five.groups) {
    const bool forced = g.env.contains("OMPI_MCA_coll");
    for (const Case& c : g.cases) {
      INFO(c.algorithm);
      CHECK(forced == (c.algorithm == "ring"));
    }
    if (forced) CHECK(g.env.at("OMPI_MCA_coll") == "^han");
  }
  // 4.1.4 has no han above tuned: one launch for all of them, as before.
  CHECK(make_plan(parse_experiment(yaml, "t.yaml"), PlanTarget{"openmpi", "4.1.4"}).groups.size() == 1);
}

TEST_CASE("a non-blocking algorithm libnbc or MPICH would not run as itself is skipped with the reason", "[plan][call]") {
  const Plan ompi = make_plan(parse_experiment("collectives: [allreduce, allgather]\nsizes: [4B, 4KiB]\n"
                                               "processes: [3]\nbackends: [{library: mpi, call: nonblocking, "
                                               "algorithms: [rabenseifner, recursive_doubling]}]\n",
                                               "t.yaml"),
                              PlanTarget{"openmpi", "4.1.4"});
  for (const Case& c : ompi.cases) {
    INFO(c.case_id << " " << name(c.collective) << " " << c.algorithm << " " << c.count);
    // libnbc's rabenseifner needs count >= 2 on 3 ranks; its recursive-doubling iallgather a power-of-two
    // np; and it has no rabenseifner iallgather at all.
    const bool falls_back = (c.algorithm == "rabenseifner" && c.count < 2) ||
                            (c.collective == Collective::allgather && c.algorithm != "default");
    CHECK(skipped_in(ompi, c) == falls_back);
  }
  const PlanTarget mpich{"mpich", "4.0.2"};
  const auto nb = cases_by_algorithm("[{library: mpi, call: nonblocking, algorithms: all}]", Collective::allgather, 3,
                                     mpich);
  CHECK(nb.contains("tsp_recexch_doubling"));
  CHECK(nb.at("sched_ring").front().selection.variable == "MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM");
  CHECK(nb.at("sched_ring").front().selection.readback == "2");
  CHECK(nb.at("sched_ring").front().selection.mechanism == "mpi_t");
  // Another MPICH takes the name in the environment, one launch per algorithm.
  const auto other = cases_by_algorithm("[{library: mpi, call: nonblocking, algorithms: [sched_ring]}]",
                                        Collective::allgather, 3, PlanTarget{"mpich", "4.1"});
  CHECK(other.at("sched_ring").front().selection.mechanism == "env");
}

TEST_CASE("a non-blocking algorithm name is not a blocking one: the blocking entry skips it", "[plan][call]") {
  const Plan plan = make_plan(parse_experiment("collectives: [allreduce]\nsizes: [4KiB]\nprocesses: [4]\n"
                                               "backends: [{library: mpi, algorithms: [binomial]}]\n",
                                               "t.yaml"),
                              PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(plan.skipped.size() == 1);  // binomial; the default runs
  CHECK_THAT(plan.skipped.back().reason, Catch::Matchers::Contains("has no algorithm 'binomial' for allreduce"));
  const Plan nb = make_plan(parse_experiment("collectives: [allreduce]\nsizes: [4KiB]\nprocesses: [4]\n"
                                             "backends: [{library: mpi, call: nonblocking, algorithms: [segmented_ring]}]\n",
                                             "t.yaml"),
                            PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(nb.skipped.size() == 1);
  CHECK_THAT(nb.skipped.back().reason, Catch::Matchers::Contains("(call: nonblocking)"));
}
