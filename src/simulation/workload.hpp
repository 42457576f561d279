// SPDX-License-Identifier: BSD-3-Clause
// An application as pico replays it (pico replay): ranks, named partitions
// of the ranks into communicators, and one iteration's sequence of calls,
// each after a compute gap, repeated. Every rank runs every call on its own
// group of the call's partition (SPMD), so all ranks see calls in one order.
//
// Sources: a YAML workload file (docs/simulation.md#workloads) and the
// built-in data-parallel LLM training step (llm_step_workload).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace pico {

// Groups of group_size ranks, members `stride` apart: {b, b+stride, ...}.
// stride 1 gives consecutive blocks (TP groups); stride = TP gives DP groups.
struct Partition {
  std::string name;
  int group_size = 1;
  int stride = 1;
};

inline Partition regular_partition(std::string name, int group_size, int stride) {
  Partition p;
  p.name = std::move(name);
  p.group_size = group_size;
  p.stride = stride;
  return p;
}

enum class CallKind : std::uint8_t {
  collective,
  compute,     // the gap alone
  shift_up,    // comm rank k sends `bytes` to k+1 after receiving from k-1 (a pipeline's forward pass)
  shift_down,  // the same from the last rank towards rank 0 (its backward pass)
};

struct WorkloadCall {
  CallKind kind = CallKind::collective;
  Collective collective = Collective::allreduce;
  std::uint64_t bytes = 0;  // per rank block, as a case's bytes
  int partition = 0;        // index into Workload::partitions; 0 is the world
  int root = 0;
  double gap_s = 0;  // compute before the call
  std::string counts{};  // alltoallv: its count-matrix pattern (collectives/count_matrix.hpp); "" = uniform
};

struct Workload {
  std::string name;
  int ranks = 0;
  std::vector<Partition> partitions;  // [0]: world
  std::vector<WorkloadCall> calls;    // one iteration
  std::int64_t iterations = 1;
  double final_gap_s = 0;  // compute after the last call

  // The world ranks of `rank`'s group in partition p, in comm-rank order, and its rank there.
  std::vector<int> group_of(int p, int rank, int* comm_rank) const;
  // Calls that communicate (not compute alone), over all iterations.
  std::uint64_t communication_calls() const;
  // Multiplies every compute gap (pico replay --compute-scale).
  void scale_compute(double factor);
};

// The largest per-rank size a call may have (1 TiB): beyond it counts x ranks
// overflow the byte accounting of the schedules.
inline constexpr std::uint64_t kMaxCallBytes = std::uint64_t{1} << 40;

// The most calls one iteration may hold (4 Mi: ~160 MB of calls): a workload
// is built in memory before --max-output can weigh its GOAL, so its size is
// bounded where it is read.
inline constexpr std::uint64_t kMaxWorkloadCalls = std::uint64_t{1} << 22;

// Reads a workload file; InputError at file:line:column on anything wrong.
Workload load_workload_yaml(const std::string& path);
Workload parse_workload_yaml(const std::string& text, const std::string& file);

// A data-parallel (x tensor x pipeline parallel) LLM training step; see
// docs/simulation.md#the-built-in-llm-step for the model and its sources.
struct LlmStep {
  double parameters = 7e9;
  std::uint64_t bucket_bytes = 25'000'000;  // PyTorch DDP's default bucket_cap_mb = 25
  int dp = 16, tp = 1, pp = 1;
  int layers = 32, hidden = 4096, sequence = 4096, micro_batches = 1;
  double compute_s = 1.0;  // forward + backward compute of one step on one rank
  int gradient_bytes = 4;  // per parameter (fp32 gradients; 2 for bf16)
  int activation_bytes = 2;  // per activation element (bf16)
};
// Throws InputError (where = the flag) on impossible values.
Workload llm_step_workload(const LlmStep& s);

}  // namespace pico
