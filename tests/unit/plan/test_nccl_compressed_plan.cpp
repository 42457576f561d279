// SPDX-License-Identifier: BSD-3-Clause
// The nccl_compressed catalogue and what the plan makes of it: float32 sum
// out of place only, 8-bit Global-QSGD only (NCCL has no 16-bit integer
// type), nothing at all from a pico built without NCCL. Needs no GPU.
#include <catch2/catch.hpp>

#include <algorithm>

#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/experiment.hpp"
#include "nccl_plan_target.hpp"
#include "plan/plan.hpp"

using namespace pico;
using Catch::Matchers::Contains;
using test::nccl_target;

namespace {

Experiment nccl_compressed_experiment(const std::string& processes = "[4]") {
  return parse_experiment("collectives: [allreduce]\n"
                          "sizes: [4KiB]\n"
                          "dtypes: [float32, int32, int16]\n"
                          "in_place: both\n"
                          "processes: " + processes + "\n"
                          "backends:\n"
                          "  - library: nccl_compressed\n"
                          "    algorithms: [dense, global_qsgd, topk]\n"
                          "    params: {bits: [8, 16], topk_ratio: [1%], error_feedback: [0, 1]}\n"
                          "    inputs: {distribution: normal, seed: 7}\n",
                          "nccl_compressed.yaml");
}

}  // namespace

TEST_CASE("the nccl_compressed catalogue: NCCL runtime, builtin, dense + Global-QSGD + Top-k", "[nccl][compressed][catalog]") {
  const Catalog& cat = catalog_for("nccl_compressed");
  CHECK(cat.runtime == "nccl");
  CHECK(cat.mechanism == SelectionMechanism::builtin);
  CHECK_FALSE(cat.has_dtype(Dtype::int16));
  for (const char* name : {"dense", "global_qsgd", "topk"}) CHECK(cat.find(Collective::allreduce, name) != nullptr);
  CHECK(cat.find(Collective::allreduce, "global_qsgd_ring") == nullptr);
  CHECK(cat.find(Collective::allreduce, "global_qsgd")->parameters == std::vector<std::string>{"bits"});
  CHECK(cat.find(Collective::allreduce, "topk")->parameters ==
        std::vector<std::string>{"topk_ratio", "error_feedback"});
  CHECK(cat.collectives.size() == 1);
  const BackendDescriptor* info = find_backend("nccl_compressed");
  REQUIRE(info != nullptr);
  CHECK(info->status != nullptr);
  CHECK_FALSE(info->has_default);
}

TEST_CASE("an nccl_compressed plan: float32, sum, out of place, 8-bit codes", "[nccl][compressed][plan]") {
  const Experiment e = nccl_compressed_experiment();
  REQUIRE(e.backends.size() == 1);
  CHECK(e.backends[0].options.at("seed") == "7");  // the compressed backend's options apply
  const Plan plan = make_plan(e, nccl_target("2.28.9"));
  int runnable = 0;
  for (const auto& g : plan.groups)
    for (const auto& c : g.cases) {
      ++runnable;
      CHECK(c.backend == "nccl_compressed");
      CHECK(c.dtype == Dtype::float32);
      CHECK_FALSE(c.in_place);
      if (c.algorithm == "global_qsgd") CHECK(c.params.at("bits") == 8);
      CHECK(c.options.at("distribution") == "normal");
    }
  // dense 1 + global_qsgd bits 8 + topk 2 error_feedback values.
  CHECK(runnable == 4);
  bool bits16 = false, int32 = false, int16 = false, in_place = false;
  for (const auto& s : plan.skipped) {
    if (s.c.dtype == Dtype::int16) {
      int16 = true;
      CHECK(s.reason == "nccl_compressed has no int16 datatype");
    } else if (s.c.dtype == Dtype::int32) {
      int32 = true;
      CHECK_THAT(s.reason, Contains("takes float32 input"));
    } else if (s.c.in_place) {
      in_place = true;
      CHECK_THAT(s.reason, Contains("requires !in_place"));
    } else {
      REQUIRE(s.c.algorithm == "global_qsgd");
      CHECK(s.c.params.at("bits") == 16);
      bits16 = true;
      CHECK_THAT(s.reason, Contains("NCCL has no 16-bit integer type") && Contains("requires bits != 16"));
    }
  }
  CHECK((bits16 && int32 && int16 && in_place));
}

TEST_CASE("nccl_compressed: more than 127 ranks overflow 8-bit codes, no NCCL, no cases", "[nccl][compressed][plan]") {
  const Plan big = make_plan(nccl_compressed_experiment("[128]"), nccl_target("2.28.9"));
  const bool qsgd_skipped = std::any_of(big.skipped.begin(), big.skipped.end(), [](const auto& s) {
    return s.c.algorithm == "global_qsgd" && s.c.dtype == Dtype::float32 && !s.c.in_place &&
           s.c.params.at("bits") == 8 && s.reason.find("requires np <= 127") != std::string::npos;
  });
  CHECK(qsgd_skipped);

  const Plan unbuilt = make_plan(nccl_compressed_experiment(), nccl_target(""));
  CHECK(unbuilt.groups.empty());
  REQUIRE_FALSE(unbuilt.skipped.empty());
  for (const auto& s : unbuilt.skipped) {
    if (s.c.dtype == Dtype::float32 && !s.c.in_place) CHECK_THAT(s.reason, Contains("built without the NCCL backend"));
  }
}
