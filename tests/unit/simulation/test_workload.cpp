// SPDX-License-Identifier: BSD-3-Clause
// Workloads for pico replay: the YAML file's partitions and calls, and the
// built-in LLM step's calls per the model in docs/simulation.md.
#include <catch2/catch.hpp>

#include "simulation/workload.hpp"
#include "support/input_error.hpp"

using namespace pico;

TEST_CASE("workload YAML: partitions, repeats and groups", "[simulation]") {
  const Workload w = parse_workload_yaml(R"(ranks: 8
communicators:
  row: {group_size: 4}
  col: {group_size: 2, stride: 4}
iterations: 5
calls:
  - {collective: allreduce, size: 1MiB, comm: row, gap: 2ms}
  - {collective: bcast, size: 8B, comm: col, root: 1, repeat: 3}
)",
                                         "w.yaml");
  CHECK(w.ranks == 8);
  CHECK(w.iterations == 5);
  REQUIRE(w.calls.size() == 4);
  CHECK(w.calls[0].bytes == 1 << 20);
  CHECK(w.calls[0].gap_s == Approx(2e-3));
  CHECK(w.calls[3].root == 1);
  CHECK(w.communication_calls() == 20);
  int comm_rank = -1;
  CHECK(w.group_of(1, 6, &comm_rank) == std::vector<int>{4, 5, 6, 7});
  CHECK(comm_rank == 2);
  CHECK(w.group_of(2, 6, &comm_rank) == std::vector<int>{2, 6});
  CHECK(comm_rank == 1);
  CHECK(w.group_of(0, 3, &comm_rank).size() == 8);
}

TEST_CASE("workload YAML: bad input is an InputError at its line", "[simulation]") {
  auto error_of = [](const char* text) {
    try {
      parse_workload_yaml(text, "w.yaml");
    } catch (const InputError& e) {
      return std::to_string(e.line) + " " + e.message;
    }
    return std::string("no error");
  };
  CHECK(error_of("ranks: 6\ncommunicators:\n  row: {group_size: 4}\ncalls: [{collective: barrier}]\n")
            .starts_with("3 6 ranks do not split"));
  CHECK(error_of("ranks: 2\ncalls:\n  - {collective: allreduce, size: 2TiB}\n").find("1 TiB") != std::string::npos);
  CHECK(error_of("ranks: 2\ncalls:\n  - {collective: allreduce, size: 1KiB, comm: rows}\n").starts_with("3 "));
  CHECK(error_of("ranks: 2\ncalls:\n  - {collective: bcast, size: 1KiB, root: 2}\n").starts_with("3 "));
  CHECK(error_of("ranks: 2\ncalls: []\n").find("no calls") != std::string::npos);
}

TEST_CASE("LLM step: DP buckets, TP allreduces per layer, PP shifts", "[simulation]") {
  LlmStep s;  // 7e9 parameters, 25 MB buckets, 16-way DP, fp32 gradients
  const Workload dp = llm_step_workload(s);
  CHECK(dp.ranks == 16);
  std::uint64_t buckets = 0, bytes = 0;
  for (const WorkloadCall& c : dp.calls)
    if (c.kind == CallKind::collective) {
      CHECK(c.partition == 2);
      ++buckets;
      bytes += c.bytes;
    }
  CHECK(buckets == 1120);  // 28 GB of gradients in 25 MB buckets
  CHECK(bytes == 28'000'000'000ull);

  s.dp = 2;
  s.tp = 4;
  s.pp = 2;
  s.micro_batches = 3;
  const Workload mixed = llm_step_workload(s);
  CHECK(mixed.ranks == 16);
  int tp_allreduces = 0, shifts = 0, dp_allreduces = 0;
  double compute = 0;
  for (const WorkloadCall& c : mixed.calls) {
    compute += c.gap_s;
    if (c.kind == CallKind::shift_up || c.kind == CallKind::shift_down) ++shifts;
    else if (c.kind == CallKind::collective && c.partition == 1) ++tp_allreduces;
    else if (c.kind == CallKind::collective && c.partition == 2) ++dp_allreduces;
  }
  CHECK(tp_allreduces == 3 * (32 / 2) * 4);  // micro-batches x stage layers x (2 forward + 2 backward)
  CHECK(shifts == 2 * 3);
  CHECK(dp_allreduces == 140);  // 7e9 / 8 parameters x 4 bytes = 3.5 GB in 25 MB buckets
  CHECK(compute == Approx(s.compute_s));
  LlmStep uneven;
  uneven.pp = 4;
  uneven.layers = 30;  // not a multiple of the stages
  CHECK_THROWS_AS(llm_step_workload(uneven), InputError);
}
