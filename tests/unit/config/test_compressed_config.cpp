// SPDX-License-Identifier: BSD-3-Clause
// The compressed backend in experiments: its parameters (fractions and
// counts), its inputs, the plan's skips for what it cannot compress, and
// mistakes reported at their line and column.
#include <catch2/catch.hpp>

#include "config/experiment.hpp"
#include "config_errors.hpp"
#include "core/case.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

using namespace pico;
using Catch::Matchers::Contains;

namespace {

const std::string kCompressed =
    "collectives: [allreduce]\n"
    "sizes: [4KiB]\n"
    "dtypes: [float32, int32]\n"
    "backends:\n"
    "  - library: compressed\n"
    "    algorithms: [dense, global_qsgd, topk]\n"
    "    params: {bits: [8, 16], topk_ratio: [1%, 0.25]}\n"
    "    inputs: {distribution: laplace, correlation: correlated, rho: 0.8, seed: 42}\n"
    "    bias_calls: 8\n";


}  // namespace

TEST_CASE("compressed: ratios are fractions, options reach every case", "[compressed][config]") {
  const Experiment e = parse_experiment(kCompressed, "exp.yaml");
  REQUIRE(e.backends.size() == 1);
  CHECK(e.backends[0].params.at("topk_ratio") == std::vector<double>{0.01, 0.25});
  CHECK(e.backends[0].params.at("bits") == std::vector<double>{8, 16});
  CHECK(e.backends[0].options.at("distribution") == "laplace");
  CHECK(e.backends[0].options.at("bias_calls") == "8");

  const Plan plan = make_plan(e, PlanTarget{"openmpi", "4.1.4"});
  // float32: dense 1 + global_qsgd 2 bits + topk 2 ratios = 5 runnable; int32: the same 5 skipped.
  CHECK(plan.cases.size() == 10);
  REQUIRE(plan.skipped.size() == 5);
  for (const auto& s : plan.skipped) CHECK_THAT(s.reason, Contains("float32"));
  for (const Case& c : plan.cases) {
    CHECK(c.options.at("correlation") == "correlated");
    CHECK(c.options.at("seed") == "42");
  }
  // The ratio keeps its fraction in the case id's text, and integral values stay integers in JSON.
  const auto topk = std::find_if(plan.cases.begin(), plan.cases.end(), [](const Case& c) { return c.algorithm == "topk"; });
  REQUIRE(topk != plan.cases.end());
  CHECK(case_to_json(*topk)["params"].dump() == R"({"topk_ratio":0.01})");
  const auto qsgd = std::find_if(plan.cases.begin(), plan.cases.end(), [](const Case& c) { return c.algorithm == "global_qsgd"; });
  CHECK(case_to_json(*qsgd)["params"].dump() == R"({"bits":8})");
  // Different inputs are different cases.
  Case other = *topk;
  other.options["seed"] = "43";
  CHECK(compute_case_id(other) != compute_case_id(*topk));
  CHECK(case_from_json(case_to_json(*topk)).options == topk->options);
}

TEST_CASE("compressed: Global-QSGD widths other than 8 and 16 bits are skipped when planned", "[compressed][config]") {
  // Every global_qsgd variant builds int8 or int16 codes; other widths failed each case at run time.
  std::string text = kCompressed;
  text.replace(text.find("[dense, global_qsgd, topk]"), 26, "[global_qsgd, global_qsgd_ring, global_qsgd_pipelined]");
  text.replace(text.find("bits: [8, 16]"), 13, "bits: [4, 8, 16]");
  text.replace(text.find("[float32, int32]"), 16, "[float32]");
  const Plan plan = make_plan(parse_experiment(text, "exp.yaml"), PlanTarget{"openmpi", "4.1.4"});
  CHECK(plan.cases.size() == 9);  // 3 algorithms x 3 widths, 3 of them skipped
  REQUIRE(plan.skipped.size() == 3);
  for (const auto& s : plan.skipped) {
    CHECK(s.c.params.at("bits") == 4);
    CHECK_THAT(s.reason, Contains("int8 or int16") && Contains("requires bits == 0 || bits == 8 || bits == 16"));
  }
}

TEST_CASE("compressed: mistakes name their place", "[compressed][config]") {
  const std::string base = "collectives: [allreduce]\nsizes: [4KiB]\nbackends:\n";
  auto e = test::experiment_error(base + "  - {library: compressed, algorithms: [topk], params: {topk_ratio: [2]}}\n");
  CHECK_THAT(e.message, Contains("topk_ratio must lie in (0, 1]"));
  CHECK(e.line == 4);
  e = test::experiment_error(base + "  - {library: compressed, algorithms: [topk], inputs: {distribution: gauss}}\n");
  CHECK_THAT(e.message, Contains("unknown distribution 'gauss'"));
  e = test::experiment_error(base + "  - {library: compressed, algorithms: [topk], inputs: {dof: 2}}\n");
  CHECK_THAT(e.message, Contains("dof must exceed 2"));
  e = test::experiment_error(base + "  - {library: mpi, inputs: {distribution: normal}}\n");
  CHECK_THAT(e.message, Contains("'inputs' applies to backends 'compressed' and 'nccl_compressed' only"));
  e = test::experiment_error(base + "  - {library: compressed, algorithms: [global_qsgd], params: {bitz: [8]}}\n");
  CHECK_THAT(e.message, Contains("no algorithm parameter 'bitz'"));
}

TEST_CASE("compressed: threads per rank and the adaptive time target", "[compressed][config]") {
  const std::string base = "collectives: [allreduce]\nsizes: [4KiB]\nbackends:\n";
  Experiment e = parse_experiment(base + "  - {library: compressed, algorithms: [topk], threads: 2}\n", "exp.yaml");
  CHECK(e.backends[0].options.at("threads") == "2");
  // One thread is the default and leaves the case as it was (its id included).
  e = parse_experiment(base + "  - {library: compressed, algorithms: [topk], threads: 1}\n", "exp.yaml");
  CHECK_FALSE(e.backends[0].options.contains("threads"));
  for (const char* bad : {"0", "65", "two", "1.5"}) {
    const auto error =
        test::experiment_error(base + "  - {library: compressed, algorithms: [topk], threads: " + bad + "}\n");
    CAPTURE(bad);
    CHECK_THAT(error.message, Contains("threads"));
    CHECK(error.line == 4);
  }
  const auto gpu = test::experiment_error(base + "  - {library: nccl_compressed, algorithms: [topk], threads: 2}\n");
  CHECK_THAT(gpu.message, Contains("'threads' applies to backend 'compressed' only"));

  e = parse_experiment(base + "  - {library: compressed, algorithms: [adaptive_topk],\n"
                              "     params: {time_target: [5ms, 0.02], min_ratio: [0.1%], max_ratio: [5%]}}\n",
                       "exp.yaml");
  CHECK(e.backends[0].params.at("time_target") == std::vector<double>{0.005, 0.02});
  CHECK(e.backends[0].params.at("min_ratio") == std::vector<double>{0.001});
  auto error = test::experiment_error(base + "  - {library: compressed, algorithms: [adaptive_topk], "
                                             "params: {time_target: [0ms]}}\n");
  CHECK_THAT(error.message, Contains("time_target must be longer than zero"));
  error = test::experiment_error(base + "  - {library: compressed, algorithms: [adaptive_topk], "
                                        "params: {time_target: [fast]}}\n");
  CHECK_THAT(error.message, Contains("not a duration"));
}
