// SPDX-License-Identifier: BSD-3-Clause
// The NCCL catalogue and what the plan makes of it: launch groups per
// NCCL_ALGO/NCCL_PROTO choice, NCCL's datatypes, what NCCL lacks. Needs no GPU.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "config/experiment.hpp"
#include "config_errors.hpp"
#include "nccl_plan_target.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

using namespace pico;
using test::nccl_target;

namespace {

Experiment nccl_experiment(const std::string& algorithms, const std::string& dtypes = "[float32]",
                           const std::string& processes = "[4]") {
  return parse_experiment("collectives: [allreduce, allgather, alltoall, barrier]\n"
                          "sizes: [1KiB]\n"
                          "dtypes: " + dtypes + "\n"
                          "in_place: both\n"
                          "processes: " + processes + "\n"
                          "backends: [{library: nccl, algorithms: " + algorithms + "}]\n",
                          "nccl.yaml");
}

std::string skip_reason(const Plan& plan, Collective coll, const std::string& algorithm, Dtype dtype, bool in_place) {
  for (const auto& s : plan.skipped)
    if (s.c.collective == coll && s.c.algorithm == algorithm && s.c.dtype == dtype && s.c.in_place == in_place)
      return s.reason;
  return "";
}

}  // namespace

TEST_CASE("the NCCL catalogue: env selection verified as environment, NCCL's datatypes", "[nccl][catalog]") {
  const Catalog& cat = catalog_for("nccl");
  CHECK(cat.mechanism == SelectionMechanism::env);
  CHECK(cat.verify == "environment");
  CHECK(cat.runtime == "nccl");
  CHECK(cat.has_dtype(Dtype::bfloat16));
  CHECK(cat.has_dtype(Dtype::float16));
  CHECK_FALSE(cat.has_dtype(Dtype::int16));
  CHECK(cat.unsupported.contains(Collective::barrier));
  const AlgorithmEntry* ll = cat.find(Collective::allreduce, "ring_ll");
  REQUIRE(ll != nullptr);
  CHECK(ll->value == "Ring");
  CHECK(ll->env == std::map<std::string, std::string>{{"NCCL_PROTO", "LL"}});
  CHECK(cat.find(Collective::allgather, "pat")->versions == ">=2.23");
  CHECK(cat.find(Collective::allreduce, "pat") == nullptr);
  // Host catalogues have no 16-bit floats.
  CHECK_FALSE(catalog_for("openmpi").has_dtype(Dtype::float16));
  CHECK(catalog_for("openmpi").has_dtype(Dtype::int16));
}

TEST_CASE("an NCCL sweep: one launch group per NCCL_ALGO/NCCL_PROTO choice", "[nccl][plan]") {
  const Plan plan = make_plan(nccl_experiment("[default, ring_ll, tree_simple, pat]"), nccl_target("2.28.9"));
  std::set<std::map<std::string, std::string>> envs;
  for (const auto& g : plan.groups) {
    envs.insert(g.env);
    for (const auto& c : g.cases) {
      CHECK(c.backend == "nccl");
      CHECK(c.selection.verify == "environment");
      if (c.algorithm != "default") CHECK(g.env.at("NCCL_ALGO") == c.selection.value);
    }
  }
  // default (nothing set), Ring+LL (allreduce, allgather), Tree+Simple (allreduce), PAT (allgather).
  CHECK(envs == std::set<std::map<std::string, std::string>>{{},
                                                              {{"NCCL_ALGO", "Ring"}, {"NCCL_PROTO", "LL"}},
                                                              {{"NCCL_ALGO", "Tree"}, {"NCCL_PROTO", "Simple"}},
                                                              {{"NCCL_ALGO", "PAT"}}});
  CHECK(skip_reason(plan, Collective::barrier, "default", Dtype::none, false) ==
        "nccl has no barrier: time an allreduce of one element instead");
  CHECK_THAT(skip_reason(plan, Collective::alltoall, "default", Dtype::float32, true),
             Catch::Matchers::Contains("requires !in_place"));
  CHECK(skip_reason(plan, Collective::alltoall, "default", Dtype::float32, false).empty());
  CHECK(skip_reason(plan, Collective::allreduce, "pat", Dtype::float32, false) ==
        "nccl 2.28.9 has no algorithm 'pat' for allreduce");
  CHECK(skip_reason(plan, Collective::allgather, "pat", Dtype::float32, true).empty());
}

TEST_CASE("NCCL versions, datatypes and builds without NCCL", "[nccl][plan]") {
  const Plan old = make_plan(nccl_experiment("[pat]"), nccl_target("2.21.5"));
  CHECK(skip_reason(old, Collective::allgather, "pat", Dtype::float32, false) ==
        "'pat' for allgather needs nccl >=2.23; this is 2.21.5");

  const Plan dtypes = make_plan(nccl_experiment("[default]", "[int16, bfloat16]"), nccl_target("2.28.9"));
  CHECK(skip_reason(dtypes, Collective::allreduce, "default", Dtype::int16, false) == "nccl has no int16 datatype");
  CHECK(skip_reason(dtypes, Collective::allreduce, "default", Dtype::bfloat16, false).empty());

  const Plan unbuilt = make_plan(nccl_experiment("[default]"), nccl_target(""));
  CHECK(unbuilt.groups.empty());
  CHECK_THAT(skip_reason(unbuilt, Collective::allreduce, "default", Dtype::float32, false),
             Catch::Matchers::Contains("built without the NCCL backend"));
}

TEST_CASE("MPI backends skip the 16-bit floats MPI does not define", "[nccl][plan]") {
  const Experiment e = parse_experiment("collectives: [allreduce]\nsizes: [1KiB]\ndtypes: [float16, float32]\n"
                                        "backends: [{library: mpi}, {library: reference, algorithms: [ring]}]\n",
                                        "mpi.yaml");
  const Plan plan = make_plan(e, PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(plan.skipped.size() == 2);
  for (const auto& s : plan.skipped) {
    CHECK(s.c.dtype == Dtype::float16);
    CHECK_THAT(s.reason, Catch::Matchers::Contains("no float16 datatype (MPI defines none)"));
  }
}

TEST_CASE("catalogue 'env' needs the env mechanism, 'dtypes' names datatypes", "[nccl][catalog]") {
  const std::string head = "library: x\nselection: {mechanism: mpi_t}\ncollectives:\n  allreduce:\n    variable: v\n";
  try {
    parse_catalog(head + "    algorithms:\n      - {name: ring, value: '4', env: {NCCL_PROTO: LL}}\n", "c.yaml");
    FAIL("accepted env under mpi_t");
  } catch (const InputError& e) {
    CHECK(e.line == 7);
    CHECK_THAT(e.message, Catch::Matchers::Contains("mechanism is mpi_t"));
  }
  try {
    parse_catalog("library: x\ndtypes: [float32, half]\nselection: {mechanism: env}\ncollectives: {}\n", "c.yaml");
    FAIL("accepted an unknown dtype");
  } catch (const InputError& e) {
    CHECK(e.line == 2);
    CHECK(e.column == 19);
  }
}

TEST_CASE("on one rank NCCL ignores NCCL_ALGO, so forced algorithms are skipped and default runs", "[nccl]") {
  const Plan plan = make_plan(nccl_experiment("[default, ring_ll, tree_simple]", "[float32]", "[1, 2]"),
                              nccl_target("2.28.9"));
  std::set<std::string> skipped;
  for (const auto& s : plan.skipped) skipped.insert(s.c.case_id);
  std::set<std::pair<std::string, int>> planned;
  for (const auto& c : plan.cases)
    if (c.collective == Collective::allreduce && !skipped.contains(c.case_id)) planned.insert({c.algorithm, c.np});
  CHECK(planned == std::set<std::pair<std::string, int>>{{"default", 1}, {"default", 2}, {"ring_ll", 2}, {"tree_simple", 2}});
  bool one_rank_skip = false;
  for (const auto& s : plan.skipped)
    if (s.c.collective == Collective::allreduce && s.c.algorithm == "ring_ll" && s.c.np == 1)
      one_rank_skip = s.reason.find("one-rank collective as a local copy") != std::string::npos &&
                      s.reason.find("(requires np >= 2)") != std::string::npos;
  CHECK(one_rank_skip);
}

TEST_CASE("gpus_per_process: one process drives several GPUs, so a launch starts np / G processes", "[nccl][plan]") {
  const Experiment e = parse_experiment("collectives: [allreduce]\nsizes: [1KiB]\nprocesses: [1, 2, 3, 4, 8]\n"
                                        "backends: [{library: nccl, gpus_per_process: 2}]\n",
                                        "g.yaml");
  const Plan plan = make_plan(e, nccl_target("2.28.9"));
  // np 1 and 3 do not divide into processes of 2 GPUs.
  REQUIRE(plan.skipped.size() == 2);
  for (const auto& s : plan.skipped) {
    CHECK((s.c.np == 1 || s.c.np == 3));
    CHECK(s.reason == fmt::format("np {} is not a multiple of gpus_per_process 2 (each process drives that many GPUs)",
                                  s.c.np));
  }
  std::map<int, int> processes_for_np;
  for (const auto& g : plan.groups)
    for (const auto& c : g.cases) {
      CHECK(ranks_per_process(c) == 2);
      CHECK(c.options.at("gpus_per_process") == "2");
      processes_for_np[c.np] = g.np;
    }
  CHECK(processes_for_np == std::map<int, int>{{2, 1}, {4, 2}, {8, 4}});

  // The default of 1 stays out of the case: same ids as without the key.
  const auto ids = [](const std::string& backend) {
    std::set<std::string> out;
    for (const auto& c : make_plan(parse_experiment("collectives: [allreduce]\nsizes: [1KiB]\nprocesses: [2]\n"
                                                    "backends: [" + backend + "]\n",
                                                    "g.yaml"),
                                   nccl_target("2.28.9"))
                             .cases)
      out.insert(c.case_id);
    return out;
  };
  CHECK(ids("{library: nccl, gpus_per_process: 1}") == ids("{library: nccl}"));
  CHECK(ids("{library: nccl, gpus_per_process: 2}") != ids("{library: nccl}"));
}

TEST_CASE("gpus_per_process is the nccl backend's and a positive count", "[nccl][config]") {
  const InputError other = test::experiment_error(
      "collectives: [allreduce]\nsizes: [1KiB]\nbackends:\n  - {library: mpi, gpus_per_process: 2}\n");
  CHECK(other.line == 4);
  CHECK(other.column == 38);  // the value
  CHECK_THAT(other.message, Catch::Matchers::Contains("'gpus_per_process' applies to backend 'nccl' only"));
  const InputError zero = test::experiment_error(
      "collectives: [allreduce]\nsizes: [1KiB]\nbackends:\n  - {library: nccl, gpus_per_process: 0}\n");
  CHECK(zero.line == 4);
  CHECK_THAT(zero.message, Catch::Matchers::Contains("gpus_per_process"));
}
