// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/workload_program.hpp"

#include <map>
#include <numeric>

namespace pico {
namespace {

// The groups of partition `part` over `ranks` ranks: each group's world ranks in comm-rank order.
std::vector<std::vector<int>> groups_of(const Partition& part, int ranks) {
  std::vector<std::vector<int>> out;
  const int span = part.group_size * part.stride;
  for (int block = 0; block < ranks; block += span)
    for (int offset = 0; offset < part.stride; ++offset) {
      std::vector<int>& g = out.emplace_back();
      for (int k = 0; k < part.group_size; ++k) g.push_back(block + offset + k * part.stride);
    }
  return out;
}

TraceOp op_of(TraceOpKind kind, double gap_s, std::uint64_t index) {
  TraceOp op;
  op.kind = kind;
  op.gap_s = gap_s;
  op.index = index;
  return op;
}

}  // namespace

WorkloadProgram workload_program(const Workload& w, const std::vector<std::string>& call_algorithms) {
  WorkloadProgram out;
  TraceProgram& t = out.program;
  const auto ranks = static_cast<std::size_t>(w.ranks);
  t.ranks.resize(ranks);
  t.comms.push_back(TraceCommunicator{std::vector<int>(ranks)});
  std::iota(t.comms[0].ranks.begin(), t.comms[0].ranks.end(), 0);
  std::vector<std::vector<std::vector<int>>> groups;
  std::vector<std::vector<int>> comm_of;  // per partition, per group: its program communicator
  for (const Partition& part : w.partitions) {
    groups.push_back(groups_of(part, w.ranks));
    std::vector<int>& comms = comm_of.emplace_back();
    for (const std::vector<int>& g : groups.back()) {
      if (g.size() == ranks) {
        comms.push_back(0);
      } else {
        comms.push_back(static_cast<int>(t.comms.size()));
        t.comms.push_back(TraceCommunicator{g});
      }
    }
  }
  std::vector<double> gap(ranks, 0);  // compute before each rank's next operation
  auto take_gap = [&](int r) {
    const double g = gap[static_cast<std::size_t>(r)];
    gap[static_cast<std::size_t>(r)] = 0;
    return g;
  };
  for (std::int64_t it = 0; it < w.iterations; ++it) {
    for (std::size_t i = 0; i < w.calls.size(); ++i) {
      const WorkloadCall& c = w.calls[i];
      for (double& g : gap) g += c.gap_s;
      if (c.kind == CallKind::compute) continue;
      const auto p = static_cast<std::size_t>(c.partition);
      for (std::size_t k = 0; k < groups[p].size(); ++k) {
        const std::vector<int>& g = groups[p][k];
        if (g.size() < 2) continue;
        if (c.kind == CallKind::collective) {
          const std::uint64_t index = t.collectives.size();
          TraceCollective tc;
          tc.collective = c.collective;
          tc.bytes = c.bytes;
          tc.comm = comm_of[p][k];
          tc.root = c.root;
          tc.counts = c.counts;
          t.collectives.push_back(tc);
          out.algorithms.push_back(call_algorithms[i]);
          for (const int r : g)
            t.ranks[static_cast<std::size_t>(r)].ops.push_back(op_of(TraceOpKind::collective, take_gap(r), index));
          continue;
        }
        // A shift: comm rank j receives from its neighbour behind, then sends to the one ahead.
        const bool up = c.kind == CallKind::shift_up;
        const std::size_t first_message = t.messages.size();
        const auto n = g.size();
        for (std::size_t j = 0; j + 1 < n; ++j)  // hop j: from position j to j+1 (up) or j+1 to j (down)
          t.messages.push_back(up ? TraceMessage{g[j], g[j + 1], c.bytes} : TraceMessage{g[j + 1], g[j], c.bytes});
        for (std::size_t j = 0; j < n; ++j) {
          auto& ops = t.ranks[static_cast<std::size_t>(g[j])].ops;
          const double before = take_gap(g[j]);
          const bool receives = up ? j > 0 : j + 1 < n, sends = up ? j + 1 < n : j > 0;
          const std::uint64_t in = first_message + (up ? j - 1 : j), out_hop = first_message + (up ? j : j - 1);
          if (receives) ops.push_back(op_of(TraceOpKind::recv, before, in));
          if (sends) ops.push_back(op_of(TraceOpKind::send, receives ? 0 : before, out_hop));
        }
      }
    }
  }
  for (std::size_t r = 0; r < ranks; ++r) t.ranks[r].final_gap_s = gap[r] + w.final_gap_s;
  return out;
}

}  // namespace pico
