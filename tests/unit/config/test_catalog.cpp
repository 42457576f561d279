// SPDX-License-Identifier: BSD-3-Clause
// Algorithm catalogues, their constraint language, and plans built from them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/constraint.hpp"
#include "config/experiment.hpp"
#include "launch/mpi_detect.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

using namespace pico;

TEST_CASE("constraint expressions evaluate like the libraries' own checks", "[catalog]") {
  const auto vars = constraint_variables(6, 5, 4, false, 1024);
  CHECK(vars.at("np_pow2") == 4);
  CHECK(vars.at("bytes") == 20);
  CHECK(Constraint("count >= np_pow2").holds(vars));
  CHECK_FALSE(Constraint("count >= np").holds(vars));
  CHECK_FALSE(Constraint("power_of_two(np)").holds(vars));
  CHECK(Constraint("even(np) && !in_place").holds(vars));
  CHECK(Constraint("np == 2 || (count * dtype_size) % 4 == 0").holds(vars));
  CHECK(Constraint("segment_size / dtype_size + (segment_size % dtype_size > dtype_size / 2) == 256").holds(vars));
  CHECK(Constraint("2 + 3 * 4 == 14").holds(vars));
  CHECK_THROWS_WITH(Constraint("count >= nprocs"), Catch::Matchers::Contains("unknown variable 'nprocs'"));
  CHECK_THROWS_WITH(Constraint("count >="), Catch::Matchers::Contains("at column 9"));
  CHECK_THROWS_WITH(Constraint("pow2(np)"), Catch::Matchers::Contains("unknown function 'pow2'"));
}

TEST_CASE("version ranges", "[catalog]") {
  CHECK(version_in_range("4.1.4", ""));
  CHECK(version_in_range("4.1.4", ">=4.1"));
  CHECK_FALSE(version_in_range("4.1.4", ">=5.0"));
  CHECK(version_in_range("5.0.3", ">=5.0,<6.0"));
  CHECK_FALSE(version_in_range("6.0.0", ">=5.0,<6.0"));
  CHECK(version_in_range("4.0.2", "==4.0.2"));
  CHECK(version_in_range("", ">=6.0"));  // unknown version: no filtering
  CHECK_THROWS(version_in_range("4.1", "~4"));
}

TEST_CASE("the shipped catalogues load and name a value or a component for every algorithm", "[catalog]") {
  for (const char* lib : {"openmpi", "mpich"}) {
    const Catalog& cat = catalog_for(lib);
    CHECK(cat.library == lib);
    // Every collective is the catalogue's in exactly one way (test_collective_spec checks which).
    CHECK(cat.collectives.size() + cat.default_only.size() + cat.unsupported.size() == all_collectives().size());
    for (const auto& [coll, entry] : cat.collectives) {
      CHECK_FALSE(entry.variable.empty());
      for (const auto& a : entry.algorithms) CHECK(a.value.empty() != a.component.empty());
    }
  }
  const Catalog& ompi = catalog_for("openmpi");
  CHECK(ompi.mechanism == SelectionMechanism::mpi_t);
  CHECK(ompi.find(Collective::allreduce, "ring")->value == "4");
  CHECK(ompi.collectives.at(Collective::reduce_scatter).variable == "coll_tuned_reduce_scatter_block_algorithm");
  CHECK(ompi.launch_env_for("4.1.4") == std::map<std::string, std::string>{{"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}});
  CHECK(ompi.launch_env_for("5.0.3").at("OMPI_MCA_coll") == "^han");
  // The default (and what rides on it) runs with han, as users get it on 5.0 (docs/openmpi5.md).
  CHECK_FALSE(ompi.launch_env_for("5.0.3", /*forced=*/false).contains("OMPI_MCA_coll"));
  CHECK(ompi.launch_env_for("5.0.3", false).at("OMPI_MCA_coll_tuned_use_dynamic_rules") == "1");
  const auto names = ompi.algorithm_names(Collective::allreduce, "4.1.4");
  CHECK(names.front() == "default");
  CHECK(std::find(names.begin(), names.end(), "allgather_reduce") == names.end());  // 6.0 only
  CHECK(catalog_for("mpich").find(Collective::allgather, "recursive_doubling")->readback == "3");
}

TEST_CASE("the non-blocking calls' algorithms: their own variables, ids and constraints", "[catalog][call]") {
  const Catalog& ompi = catalog_for("openmpi");
  CHECK(&ompi.collectives_of(CallForm::nonblocking) == &ompi.nonblocking);
  CHECK(&ompi.collectives_of(CallForm::persistent) == &ompi.nonblocking);
  CHECK(&ompi.collectives_of(CallForm::blocking) == &ompi.collectives);
  CHECK(ompi.nonblocking.at(Collective::allreduce).variable == "coll_libnbc_iallreduce_algorithm");
  CHECK(ompi.find(Collective::allreduce, "rabenseifner", CallForm::nonblocking)->value == "3");
  CHECK(ompi.find(Collective::allreduce, "binomial", CallForm::nonblocking)->value == "2");
  CHECK(ompi.find(Collective::allreduce, "binomial") == nullptr);  // not a coll/tuned allreduce
  CHECK(ompi.find(Collective::bcast, "knomial", CallForm::nonblocking)->value == "4");
  CHECK_FALSE(ompi.nonblocking.contains(Collective::alltoall));  // libnbc 4.1 has no ialltoall variable
  const auto nb = ompi.algorithm_names(Collective::allreduce, "4.1.4", CallForm::nonblocking);
  CHECK(nb == std::vector<std::string>{"default", "ring", "binomial", "rabenseifner", "recursive_doubling"});
  // Checked against 5.0.7's MPI_T enumerations too (tests/tools/check_catalog_mpi_t.py), not 6.0's.
  CHECK(ompi.algorithm_names(Collective::allreduce, "5.0.7", CallForm::nonblocking) == nb);
  CHECK(ompi.algorithm_names(Collective::allreduce, "6.0.0", CallForm::nonblocking).size() == 1);
  const Catalog& mpich = catalog_for("mpich");
  // Every collective with a blocking variable has a non-blocking one in MPICH 4.0.2.
  for (const auto& [coll, entry] : mpich.collectives) {
    INFO(name(coll));
    REQUIRE(mpich.nonblocking.contains(coll));
    CHECK(mpich.nonblocking.at(coll).variable.starts_with("MPIR_CVAR_I"));
    for (const auto& a : mpich.nonblocking.at(coll).algorithms) CHECK_FALSE(a.readback.empty());
  }
  CHECK(mpich.find(Collective::allreduce, "tsp_ring", CallForm::nonblocking)->readback == "9");
  CHECK(mpich.find(Collective::alltoall, "sched_inplace", CallForm::nonblocking)->constraints.size() == 1);
  // Only an MPI library's catalogue has the section, and not for a collective it cannot choose for.
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: builtin}\ncollectives:\n  allreduce:\n"
                                  "    algorithms: [{name: ring}]\nnonblocking:\n  allreduce:\n"
                                  "    algorithms: [{name: ring}]\n",
                                  "c.yaml"),
                    Catch::Matchers::Contains("only an MPI library's catalogue"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t}\ndefault_only: {sendrecv: why}\n"
                                  "collectives: {}\nnonblocking:\n  sendrecv:\n    variable: v\n"
                                  "    algorithms: [{name: ring, value: '1'}]\n",
                                  "c.yaml"),
                    Catch::Matchers::Contains("sendrecv has no algorithms to choose"));
}

TEST_CASE("catalogue mistakes are reported at their line", "[catalog]") {
  const std::string head = "library: x\nselection: {mechanism: mpi_t}\ncollectives:\n  allreduce:\n";
  try {
    parse_catalog(head + "    variable: v\n    algorithms:\n      - {name: ring, value: '4', constraints: [{require: 'count >= nps', reason: r}]}\n", "c.yaml");
    FAIL("accepted an unknown variable");
  } catch (const InputError& e) {
    CHECK(e.line == 7);
    CHECK_THAT(e.message, Catch::Matchers::Contains("unknown variable 'nps'"));
  }
  CHECK_THROWS_AS(parse_catalog(head + "    algorithms:\n      - {name: ring, value: '4'}\n", "c.yaml"), InputError);
  CHECK_THROWS_AS(parse_catalog(head + "    variable: v\n    algorithms:\n      - {name: default, value: '0'}\n", "c.yaml"),
                  InputError);
}

TEST_CASE("a default_only collective is neither listed, unsupported, nor in a built-in catalogue", "[catalog]") {
  const std::string body = "collectives:\n  allreduce:\n    variable: v\n    algorithms: [{name: ring, value: '4'}]\n";
  const Catalog ok = parse_catalog("library: x\nselection: {mechanism: mpi_t}\ndefault_only: {sendrecv: why}\n" + body,
                                   "c.yaml");
  CHECK(ok.default_only.at(Collective::sendrecv) == "why");
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t}\ndefault_only: {allreduce: why}\n" + body,
                                  "c.yaml"),
                    Catch::Matchers::Contains("allreduce is default_only"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t}\nunsupported: {sendrecv: a}\n"
                                  "default_only: {sendrecv: b}\n" + body, "c.yaml"),
                    Catch::Matchers::Contains("both unsupported and default_only"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: builtin}\ndefault_only: {sendrecv: why}\n"
                                  "collectives:\n  allreduce:\n    algorithms: [{name: ring}]\n", "c.yaml"),
                    Catch::Matchers::Contains("no default"));
}

TEST_CASE("the launcher tells which MPI it starts", "[catalog]") {
  const auto ompi = parse_launcher_version("mpirun (Open MPI) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n");
  CHECK(ompi == MpiIdentity{"openmpi", "4.1.4"});
  const auto mpich = parse_launcher_version("HYDRA build details:\n    Version:                                 4.0.2\n    Release Date: ...\n");
  CHECK(mpich == MpiIdentity{"mpich", "4.0.2"});
  CHECK(parse_launcher_version("srun: unrecognized option").library == "unknown");
}

namespace {
Experiment sweep(const std::string& algorithms, const std::string& extra = "") {
  return parse_experiment("collectives: [allreduce, allgather]\nsizes: [8B, 64KiB]\nprocesses: [2, 3]\n"
                          "backends: [{library: mpi, algorithms: " + algorithms + extra + "}]\n",
                          "sweep.yaml");
}
}  // namespace

TEST_CASE("an Open MPI sweep is one launch group per process count, with run-time selection", "[catalog]") {
  const Plan plan = make_plan(sweep("all"), PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(plan.groups.size() == 2);
  for (const auto& g : plan.groups) CHECK(g.env == std::map<std::string, std::string>{{"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}});
  // Every coll/tuned algorithm 4.1.4 has (default included) for both collectives, once per combination
  // of the catalogue's parameter grid for the parameters it takes, at 2 sizes and 2 process counts; han's
  // and adapt's only where named (they need launches of their own).
  const Catalog& ompi = catalog_for("openmpi");
  std::size_t algorithms = 0;
  for (Collective c : {Collective::allreduce, Collective::allgather})
    for (const auto& a : ompi.algorithm_names(c, "4.1.4")) {
      std::size_t combinations = 1;
      if (const AlgorithmEntry* entry = ompi.find(c, a)) {
        if (!entry->component.empty()) continue;
        for (const auto& p : entry->parameters) combinations *= ompi.parameter_grid.at(p).size();
      }
      algorithms += combinations;
    }
  CHECK(algorithms > 2);
  CHECK(plan.cases.size() == 2 * 2 * algorithms);
  const auto find = [&](const std::string& coll, const std::string& alg, int np, std::uint64_t bytes) {
    for (const auto& c : plan.cases)
      if (name(c.collective) == coll && c.algorithm == alg && c.np == np && c.bytes == bytes) return c;
    FAIL("no case " << coll << " " << alg);
    return Case{};
  };
  const Case ring = find("allreduce", "ring", 2, 65536);
  CHECK(ring.selection.mechanism == "mpi_t");
  CHECK(ring.selection.variable == "coll_tuned_allreduce_algorithm");
  CHECK(ring.selection.value == "4");
  CHECK(find("allreduce", "default", 2, 8).selection.value == "0");
  auto skipped = [&](const Case& c) {
    for (const auto& s : plan.skipped)
      if (s.c.case_id == c.case_id) return s.reason;
    return std::string();
  };
  CHECK(skipped(ring).empty());
  CHECK(skipped(find("allreduce", "ring", 3, 8)) ==
        "Open MPI's ring falls back to recursive_doubling when count < np (requires count >= np)");
  CHECK_THAT(skipped(find("allgather", "recursive_doubling", 3, 8)), Catch::Matchers::Contains("bruck"));
  CHECK(skipped(find("allgather", "recursive_doubling", 2, 8)).empty());
  CHECK_THAT(skipped(find("allgather", "two_proc", 3, 8)), Catch::Matchers::Contains("unless np == 2"));
}

namespace {
// The launch groups' selections: per group, the set of VARIABLE=VALUE its cases select.
std::vector<std::set<std::string>> selections_per_group(const Plan& plan) {
  std::vector<std::set<std::string>> out;
  for (const auto& g : plan.groups) {
    std::set<std::string> selections;
    for (const auto& c : g.cases) selections.insert(c.selection.variable + "=" + c.selection.value);
    out.push_back(selections);
  }
  return out;
}

bool skipped_at_plan_time(const Plan& plan, const Case& c) {
  return std::any_of(plan.skipped.begin(), plan.skipped.end(), [&](const SkippedCase& s) { return s.c.case_id == c.case_id; });
}
}  // namespace

TEST_CASE("`all` is coll/tuned's, han named beside it sweeps its grid in launches of its own", "[catalog]") {
  PlanTarget two_nodes{"openmpi", "4.1.4"};
  two_nodes.placement = RankPlacement{2, RankPlacement::Fill::node_after_node, "test"};
  const Plan plan = make_plan(parse_experiment("collectives: [allreduce, allgather]\nsizes: [64KiB]\nprocesses: [4]\n"
                                               "backends: [{library: mpi, algorithms: [all, han]}]\n", "sweep.yaml"),
                              two_nodes);
  std::size_t han_allreduce = 0, han_allgather = 0;
  for (const Case& c : plan.cases)
    if (c.algorithm == "han") (c.collective == Collective::allreduce ? han_allreduce : han_allgather) += 1;
  CHECK(han_allreduce == 2 * 2 * 3);  // up_module x low_module x segment_size
  CHECK(han_allgather == 1);          // no parameters there
  CHECK(std::none_of(plan.skipped.begin(), plan.skipped.end(), [](const SkippedCase& k) { return k.c.algorithm == "han"; }));
  // tuned's sweep in one launch, each han setting in one of its own.
  CHECK(plan.groups.size() == 1 + han_allreduce + han_allgather);
  CHECK(std::count_if(plan.groups.begin(), plan.groups.end(),
                      [](const LaunchGroup& g) { return g.env.contains("OMPI_MCA_coll_han_priority"); }) == 13);
  CHECK_THROWS_WITH(parse_experiment("collectives: [allreduce]\nsizes: [8B]\nprocesses: [2]\n"
                                     "backends: [{library: mpi, algorithms: [all, han, all]}]\n", "x.yaml"),
                    Catch::Contains("'all' is listed twice"));
}

TEST_CASE("an MPICH 4.0.2 sweep is one launch group per process count, selected through MPI_T", "[catalog]") {
  const Plan plan = make_plan(sweep("all"), PlanTarget{"mpich", "4.0.2"});
  REQUIRE(plan.groups.size() == 2);  // np 2 and 3
  for (const auto& g : plan.groups)
    CHECK(g.env == std::map<std::string, std::string>{{"MPIR_CVAR_COLLECTIVE_FALLBACK", "error"},
                                                      {"MPIR_CVAR_DEVICE_COLLECTIVES", "none"}});
  // Every runnable case, forced or default, is in its np's group, and a group holds several algorithms.
  std::size_t grouped = 0;
  for (const auto& g : plan.groups) {
    for (const auto& c : g.cases) CHECK(c.np == g.np);
    grouped += g.cases.size();
  }
  CHECK(grouped == runnable_cases(plan));
  for (const auto& selections : selections_per_group(plan)) CHECK(selections.size() > 3);
  const auto find = [&](const std::string& alg, Collective coll) {
    for (const auto& c : plan.cases)
      if (c.collective == coll && c.algorithm == alg && !skipped_at_plan_time(plan, c)) return c;
    FAIL("no runnable case " << alg);
    return Case{};
  };
  // MPI_T takes MPICH's id (readback), the environment its name (value), should a write be refused.
  const Case rd = find("recursive_doubling", Collective::allreduce);
  CHECK(rd.selection.mechanism == "mpi_t");
  CHECK(rd.selection.variable == "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM");
  CHECK(rd.selection.value == "recursive_doubling");
  CHECK(rd.selection.readback == "3");
  CHECK(rd.selection.takes_effect == "next_call");  // no communicator duplicated per algorithm
  // ... as the worker reads it from its launch-<k>.json.
  const LaunchRequest request = launch_request_from_json(
      launch_request_to_json(launch_request_for(0, plan.groups[0], plan.groups[0].cases, plan, PlanTarget{"mpich", "4.0.2"})));
  for (const auto& c : request.cases)
    if (c.selection.mechanism == "mpi_t") CHECK(c.selection.takes_effect == "next_call");
  const Case def = find("default", Collective::allgather);
  CHECK(def.selection.mechanism == "mpi_t");  // written back to auto, whatever an earlier case forced
  CHECK(def.selection.value == "auto");
  CHECK(def.selection.readback == "0");
  // Open MPI's choice is read when a communicator is created: there a forced case duplicates one.
  CHECK(make_plan(sweep("[ring]"), PlanTarget{"openmpi", "4.1.4"}).cases.back().selection.takes_effect ==
        "new_communicator");
}

TEST_CASE("an MPICH whose ids were not checked runs one launch group per algorithm, by name in the environment",
          "[catalog]") {
  // 4.3 numbers reduce_scatter_allgather 5, not 4.0.2's 4: writing ids there would run another algorithm.
  for (const std::string version : {"4.3.0", "4.0.1", ""}) {
    INFO("MPICH version '" << version << "'");
    const Plan plan = make_plan(sweep("[ring, recursive_doubling]"), PlanTarget{"mpich", version});
    std::set<std::string> runs;
    for (const auto& c : plan.cases) {
      if (skipped_at_plan_time(plan, c)) continue;
      CHECK(c.selection.mechanism == "env");
      runs.insert(fmt::format("{} {}={}", c.np, c.selection.variable, c.selection.value));
    }
    CHECK(plan.groups.size() == runs.size());
    CHECK(plan.groups.size() > 2);
    for (const auto& selections : selections_per_group(plan)) CHECK(selections.size() == 1);  // one algorithm each
    for (const auto& g : plan.groups) {
      CHECK(g.env.at("MPIR_CVAR_COLLECTIVE_FALLBACK") == "error");
      for (const auto& c : g.cases)
        if (c.algorithm == "default")  // the library's own choice: no algorithm variable at all
          CHECK(std::none_of(g.env.begin(), g.env.end(), [](const auto& kv) { return kv.first.ends_with("_ALGORITHM"); }));
        else
          CHECK(g.env.at(c.selection.variable) == c.selection.value);
    }
  }
  // MPICH 4.0.2 has no allreduce ring: skipped, with the version that lacks it.
  const Plan plan = make_plan(sweep("[ring]"), PlanTarget{"mpich", "4.0.2"});
  bool saw_ring_skip = false;
  for (const auto& s : plan.skipped)
    if (s.c.collective == Collective::allreduce && s.c.algorithm == "ring") {
      CHECK(s.reason == "mpich 4.0.2 has no algorithm 'ring' for allreduce");
      saw_ring_skip = true;
    }
  CHECK(saw_ring_skip);
}

TEST_CASE("mpi_t_versions, takes_effect and default_readback belong to an mpi_t catalogue", "[catalog]") {
  const std::string body = "collectives:\n  allreduce:\n    variable: v\n    algorithms: [{name: ring, value: ring, readback: '4'}]\n";
  const Catalog cat = parse_catalog("library: x\nselection: {mechanism: mpi_t, default_value: auto, default_readback: '0', "
                                    "mpi_t_versions: '>=4.0,<4.1', takes_effect: next_call}\n" + body, "c.yaml");
  CHECK(cat.mechanism_for("4.0.2") == SelectionMechanism::mpi_t);
  CHECK(cat.mechanism_for("4.1.0") == SelectionMechanism::env);
  CHECK(cat.mechanism_for("") == SelectionMechanism::env);  // unknown: the ids may not be its own
  CHECK(cat.takes_effect == "next_call");
  CHECK(catalog_for("openmpi").mechanism_for("") == SelectionMechanism::mpi_t);  // its ids are not version-bound
  CHECK(catalog_for("openmpi").takes_effect == "new_communicator");
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: env, mpi_t_versions: '==4.0.2'}\n" + body, "c.yaml"),
                    Catch::Matchers::Contains("'mpi_t_versions' is for mechanism mpi_t, not env"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t, takes_effect: later}\n" + body, "c.yaml"),
                    Catch::Matchers::Contains("next_call"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t, mpi_t_versions: '~4'}\n" + body, "c.yaml"),
                    Catch::Matchers::Contains("bad version clause"));
}

TEST_CASE("a catalogue's environment names follow the platform's rule", "[catalog]") {
  // Issue 66, finding 4: a name like `X; touch PWNED; Y` was printed unquoted by --dry-run, and one starting
  // `-S` became GNU env's option in a Slurm job script.
  const std::string body = "collectives:\n  allreduce:\n    variable: v\n    algorithms: [{name: ring, value: '1'";
  const auto parse = [&](const std::string& selection, const std::string& algorithm_extra = "") {
    return parse_catalog("library: x\nselection: {mechanism: env" + selection + "}\n" + body + algorithm_extra + "}]\n",
                         "c.yaml");
  };
  CHECK(parse(", launch_env: {OK_NAME: '1'}").launch_env.at("OK_NAME") == "1");
  for (const std::string bad : {"'X; touch PWNED; Y'", "'-S/bin/sh -c id'", "'1ABC'", "''"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse(", launch_env: {" + bad + ": '1'}"),
                      Catch::Matchers::Contains("is not a valid environment variable name"));
    CHECK_THROWS_WITH(parse(", launch_env_by_version: [{versions: '>=1', env: {" + bad + ": '1'}}]"),
                      Catch::Matchers::Contains("is not a valid environment variable name"));
    CHECK_THROWS_WITH(parse("", ", env: {" + bad + ": '1'}"),
                      Catch::Matchers::Contains("is not a valid environment variable name"));
  }
  CHECK_THROWS_WITH(parse(", launch_env: {A: \"x\\ny\"}"), Catch::Matchers::Contains("contains a line break"));
  CHECK_THROWS_WITH(parse_catalog("library: x\nselection: {mechanism: mpi_t, components: {c: {variable: v, value: "
                                  "'1', env: {'a b': '1'}}}}\n" + body + "}]\n", "c.yaml"),
                    Catch::Matchers::Contains("'a b' is not a valid environment variable name"));
}

TEST_CASE("algorithm parameters multiply the cases that take them", "[catalog]") {
  const Experiment e = parse_experiment(
      "collectives: [allreduce]\nsizes: [1MiB]\nprocesses: [4]\n"
      "backends: [{library: mpi, algorithms: [ring, segmented_ring], params: {segment_size: [0, 64KiB]}}]\n",
      "p.yaml");
  const Plan plan = make_plan(e, PlanTarget{"openmpi", "4.1.4"});
  // default, ring (takes no segment size), segmented_ring x 2.
  REQUIRE(plan.cases.size() == 4);
  CHECK(plan.cases[3].params.at("segment_size") == 65536);
  CHECK(plan.cases[3].selection.parameters.at("coll_tuned_allreduce_algorithm_segmentsize") == "65536");
  CHECK(plan.skipped.size() == 1);  // segment size 0: Open MPI runs the plain ring
  CHECK(plan.skipped[0].c.params.at("segment_size") == 0);
}

TEST_CASE("without a known library, only the default can be measured", "[catalog]") {
  const Plan plan = make_plan(sweep("[default, ring]"), PlanTarget{});
  for (const auto& s : plan.skipped) {
    CHECK(s.c.algorithm == "ring");
    CHECK_THAT(s.reason, Catch::Matchers::Contains("mpi: {library: openmpi|mpich}"));
  }
  CHECK(plan.skipped.size() == plan.cases.size() / 2);
  for (const auto& g : plan.groups)
    for (const auto& c : g.cases) CHECK(c.algorithm == "default");
}

TEST_CASE("a catalogue types its parameters, an experiment's values are read as it says", "[catalog]") {
  const std::string body = "library: x\nselection: {mechanism: builtin}\ncollectives:\n  allreduce:\n"
                           "    algorithms: [{name: topk, parameters: [topk_ratio, bits]}]\n";
  const Catalog typed = parse_catalog(body + "parameter_types: {topk_ratio: fraction}\n", "c.yaml");
  CHECK(typed.parameter_types.at("topk_ratio") == ParameterType::fraction);
  CHECK_FALSE(typed.parameter_types.contains("bits"));  // a size, as every parameter not typed
  CHECK_THROWS_WITH(parse_catalog(body + "parameter_types: {segment_size: size}\n", "c.yaml"),
                    Catch::Matchers::Contains("no algorithm of this catalogue takes parameter 'segment_size'"));
  CHECK_THROWS_WITH(parse_catalog(body + "parameter_types: {topk_ratio: percent}\n", "c.yaml"),
                    Catch::Matchers::Contains("percent"));
  // The shipped compressed backend reads its ratios, durations and thresholds so.
  const BackendDescriptor& compressed = backend_descriptor("compressed");
  CHECK(compressed.parameter_types.at("topk_ratio") == ParameterType::fraction);
  CHECK(compressed.parameter_types.at("time_target") == ParameterType::duration);
  CHECK(compressed.parameter_types.at("threshold") == ParameterType::magnitude);
  CHECK_FALSE(compressed.parameter_types.contains("bits"));
}
