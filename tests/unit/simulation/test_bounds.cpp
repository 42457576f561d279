// SPDX-License-Identifier: BSD-3-Clause
// What bounds pico predict, fit and replay (issue 35): the evaluator's budget, LogGOPSim's
// output read without std::regex, a missing TMPDIR, and workloads counted before they are built.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "collectives/reference/recording.hpp"
#include "simulation/evaluator_budget.hpp"
#include "simulation/loggopsim.hpp"
#include "simulation/predict.hpp"
#include "simulation/workload.hpp"
#include "support/input_error.hpp"
#include "support/temp_dir.hpp"
#include "tuning/profile.hpp"

using namespace pico;

TEST_CASE("LogGOPSim's finishing time is read without a regex, and past 2^64 is no time", "[bounds]") {
  CHECK(finishing_time("x\nMaximum finishing time at host 3: 20260 (2.026e-05 s)\n") == 20260u);
  CHECK(!finishing_time("Host 0: 8000\n"));
  CHECK(!finishing_time("Maximum finishing time at host 3: 99999999999999999999999 (1 s)\n"));
  // A 2 MB run of digits crashed std::regex_search (its recursion overflowed the stack).
  const std::string digits(2'000'000, '7');
  CHECK(!finishing_time("Maximum finishing time at host 1: " + digits + "\n"));
  CHECK(!finishing_time("Maximum finishing time at host " + digits));
}

TEST_CASE("a missing TMPDIR is an input error, not a terminate", "[bounds]") {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", "/nonexistent/pico-tmp", 1);
  CHECK_THROWS_AS(TempDir("pico-sim"), InputError);
  if (old) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
}

TEST_CASE("the evaluator's estimate and budget", "[bounds]") {
  reference::ScheduleRequest req;
  req.collective = Collective::alltoall;
  req.algorithm = "linear";
  req.dtype = Dtype::float32;
  req.count = 256;
  req.np = 64;
  // Linear alltoall: every rank sends to and receives from every other (and copies its own block).
  const auto ops = estimated_operations(req);
  CHECK(ops >= 2u * 63u * 64u);
  CHECK(ops <= 3u * 64u * 64u);
  // np 8192: every alltoall algorithm's schedule is beyond the budget, so none is evaluated (and nothing is built).
  const auto out = predict_algorithms(std::nullopt, Collective::alltoall, 1024, 8192, Dtype::float32, 65536,
                                      default_model().params, 1);
  REQUIRE(!out.empty());
  for (const auto& p : out) CHECK(!p.not_evaluated.empty());
  // np 64 fits: every algorithm has a time.
  for (const auto& p : predict_algorithms(std::nullopt, Collective::alltoall, 1024, 64, Dtype::float32, 65536,
                                          default_model().params, 1))
    CHECK((p.not_evaluated.empty() && p.seconds > 0));
}

// Issue 53, finding 7: the estimate recorded each sampled rank whole to count
// it, 4.2 GB for allreduce at 1 TiB on 10 ranks (segmented_ring's 75 M
// operations a rank). It stops at the budget's operations now.
TEST_CASE("the estimate stops recording at the budget and says 'more than'", "[bounds]") {
  reference::ScheduleRequest req;
  req.collective = Collective::allreduce;
  req.algorithm = "segmented_ring";
  req.dtype = Dtype::float32;
  req.count = (std::uint64_t{1} << 40) / 4;
  req.np = 10;
  const std::uint64_t budget_ops = kEvaluatorBudgetBytes / kEvaluatorBytesPerOperation;
  CHECK(kEvaluatorBudgetOperations == budget_ops);
  CHECK(estimated_operations(req) == budget_ops + 1);
  CHECK(operations_text(estimated_operations(req)) == fmt::format("more than {} million operations", budget_ops / 1000000));
  CHECK(operations_text(2'500'000) == "about 2 million operations");
  transport::RankSchedule rs;
  rs.max_ops = 1000;
  CHECK_THROWS_AS(reference::record_rank(req, 0, rs), transport::OpLimitReached);
  CHECK(rs.ops.size() == 1000);  // what was recorded up to the limit, nothing past it
}

TEST_CASE("an LLM step is counted before it is built", "[bounds]") {
  LlmStep s;
  s.dp = 4;
  s.bucket_bytes = 1;  // 2.8e10 buckets
  CHECK_THROWS_AS(llm_step_workload(s), InputError);
  s.bucket_bytes = 25'000'000;
  s.micro_batches = 2147483647;
  CHECK_THROWS_AS(llm_step_workload(s), InputError);
  s.micro_batches = 4;
  CHECK(llm_step_workload(s).calls.size() < kMaxWorkloadCalls);
}

TEST_CASE("profiles and models are small files: 16 MiB at most", "[bounds]") {
  const std::string path = "/tmp/pico-unit-big-profile.json";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    const std::string spaces(1 << 20, ' ');
    for (int k = 0; k < 17; ++k) std::fputs(spaces.c_str(), f);
    std::fputs("{}", f);
    std::fclose(f);
  }
  try {
    load_profile(path);
    FAIL("a 17 MiB profile was read");
  } catch (const InputError& e) {
    CHECK_THAT(e.message, Catch::Contains("limit"));
  }
  CHECK_THROWS_AS(load_model(path), InputError);
  std::remove(path.c_str());
}
