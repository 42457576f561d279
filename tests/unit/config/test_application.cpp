// SPDX-License-Identifier: BSD-3-Clause
// Application experiments as users write them (src/config/application.hpp)
// and the order their launches run in (src/launch/application_run.hpp).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "config/application.hpp"
#include "config_errors.hpp"
#include "launch/application_run.hpp"

using namespace pico;

namespace {

// /bin/sh is on every machine these tests run on: a command that resolves.
const std::string kHead = "application: {command: [/bin/sh, -c, 'echo Loop time of 1.5']}\n";

InputError application_error(const std::string& text) {
  return test::error_of(parse_application_experiment, text, "app.yaml");
}

}  // namespace

TEST_CASE("an application experiment reads its variants, default first", "[application]") {
  const ApplicationExperiment e = parse_application_experiment(
      kHead + "processes: [4, 2]\nrounds: 3\nvariants:\n  - {name: ring, algorithms: {allreduce: ring}}\n"
              "  - default\n  - {name: eager, env: {OMPI_MCA_btl_tcp_eager_limit: '65536'}}\n",
      "app.yaml");
  REQUIRE(e.variants.size() == 3);
  CHECK(e.variants[0].name == "default");
  CHECK(e.variants[1].algorithms.at(Collective::allreduce) == "ring");
  CHECK(e.variants[2].env.at("OMPI_MCA_btl_tcp_eager_limit") == "65536");
  CHECK(e.command.front() == "/bin/sh");
  CHECK(e.processes == std::vector<int>{4, 2});
  CHECK(e.rounds == 3);
  // The default is added where the file leaves it out.
  const ApplicationExperiment d = parse_application_experiment(kHead + "variants: [{name: x, env: {A: b}}]\n", "a.yaml");
  CHECK(d.variants.front().name == "default");
}

TEST_CASE("an application experiment refuses what it cannot run, at the spot", "[application]") {
  const InputError missing = application_error("application: {command: [no-such-program-q]}\nvariants: [default]\n");
  CHECK(missing.line == 1);
  CHECK(missing.column == 25);  // the program name inside [ ]
  CHECK_THAT(missing.message, Catch::Contains("is not found on PATH"));
  CHECK_THAT(application_error(kHead + "variants: [default]\n").message, Catch::Contains("compares nothing"));
  CHECK_THAT(application_error(kHead + "variants: [{name: x, algorithms: {alreduce: ring}}]\n").hint,
             Catch::Contains("allreduce"));
  CHECK_THAT(application_error(kHead + "variants: [{name: x, env: {'A B': c}}]\n").message,
             Catch::Contains("is not a valid environment variable name"));
  CHECK_THAT(application_error(kHead + "variants: [{name: x, env: {LD_PRELOAD: /x.so}}]\n").message,
             Catch::Contains("cannot set LD_PRELOAD"));
  CHECK_THAT(application_error(kHead + "variants: [{name: x, env: {A: b}}, {name: x, env: {A: c}}]\n").message,
             Catch::Contains("given twice"));
  CHECK_THAT(application_error(kHead + "variants: [{name: default, env: {A: b}}, {name: x}]\n").message,
             Catch::Contains("the library as it comes"));
  const InputError pattern = application_error(
      "application: {command: [/bin/sh], figure_of_merit: {pattern: 'Loop ([0-9'}}\nvariants: [default, {name: x}]\n");
  CHECK_THAT(pattern.message, Catch::Contains("not a regular expression"));
  CHECK(pattern.line == 1);
}

TEST_CASE("application launches run round by round, each round every variant in a seeded order", "[application]") {
  ApplicationExperiment e = parse_application_experiment(
      kHead + "processes: [2]\nrounds: 6\nrepetitions: 2\nseed: 11\nvariants: [default, {name: a}, {name: b}]\n",
      "app.yaml");
  const auto plan = plan_application(e);
  REQUIRE(plan.size() == 6 * 2 * 3);
  std::set<std::vector<std::string>> orders;
  for (int round = 0; round < 6; ++round) {
    std::map<std::string, int> seen;
    for (const PlannedLaunch& l : plan)
      if (l.round == round) ++seen[l.variant];
    CHECK(seen == std::map<std::string, int>{{"default", 2}, {"a", 2}, {"b", 2}});
  }
  for (std::size_t k = 0; k < plan.size(); k += 3)
    orders.insert({plan[k].variant, plan[k + 1].variant, plan[k + 2].variant});
  CHECK(orders.size() > 1);  // shuffled, not one fixed order
  CHECK(plan_application(e).front().variant == plan.front().variant);  // the same seed, the same order
  for (std::size_t k = 0; k < plan.size(); ++k) CHECK(plan[k].index == static_cast<int>(k));
}

TEST_CASE("sizes_by_collective gives each collective its own sizes", "[application]") {
  const Experiment e = parse_experiment(
      "collectives: [allreduce, bcast, barrier]\nsizes_by_collective: {allreduce: [4B, 1KiB], bcast: [1KiB, 6912B]}\n",
      "sweep.yaml");
  CHECK(e.sizes == std::vector<std::uint64_t>{4, 1024, 6912});  // the union, for what reads all sizes
  CHECK(e.sizes_by_collective.at(Collective::bcast) == std::vector<std::uint64_t>{1024, 6912});
  CHECK_THAT(test::experiment_error("collectives: [allreduce]\nsizes_by_collective: {bcast: [8B]}\n").message,
             Catch::Contains("not one of the experiment's collectives"));
  CHECK_THAT(test::experiment_error("collectives: [allreduce, bcast]\nsizes_by_collective: {bcast: [8B]}\n").message,
             Catch::Contains("no sizes for allreduce"));
  CHECK_THAT(test::experiment_error("collectives: [bcast]\nsizes: [8B]\nsizes_by_collective: {bcast: [8B]}\n").message,
             Catch::Contains("not beside them"));
}
