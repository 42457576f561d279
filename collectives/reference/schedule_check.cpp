// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/reference/schedule_check.hpp"

#include <cstdint>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace pico::reference {
namespace {

using transport::OpKind;
using transport::RankSchedule;

struct OpRef {
  int rank;
  std::size_t index;
};

}  // namespace

std::string check_schedule(const std::vector<RankSchedule>& ranks) {
  // Pair messages per channel (src, dst) in posting order.
  std::map<std::pair<int, int>, std::vector<OpRef>> sends, recvs;
  for (const auto& rs : ranks) {
    for (std::size_t i = 0; i < rs.ops.size(); ++i) {
      const auto& op = rs.ops[i];
      if (op.kind == OpKind::send) sends[{rs.rank, op.peer}].push_back({rs.rank, i});
      if (op.kind == OpKind::recv) recvs[{op.peer, rs.rank}].push_back({rs.rank, i});
    }
  }
  std::vector<std::vector<OpRef>> partner(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) partner[r].assign(ranks[r].ops.size(), OpRef{-1, 0});
  for (const auto& [channel, list] : sends) {
    const auto& matching = recvs[channel];
    if (matching.size() != list.size())
      return fmt::format("{} send(s) from rank {} to rank {} but {} receive(s)", list.size(), channel.first,
                         channel.second, matching.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
      const auto& s = ranks[static_cast<std::size_t>(list[k].rank)].ops[list[k].index];
      const auto& r = ranks[static_cast<std::size_t>(matching[k].rank)].ops[matching[k].index];
      if (s.bytes != r.bytes || s.tag != r.tag)
        return fmt::format("message {} from rank {} to rank {}: sent {}b tag {}, received as {}b tag {}", k,
                           channel.first, channel.second, s.bytes, s.tag, r.bytes, r.tag);
      partner[static_cast<std::size_t>(list[k].rank)][list[k].index] = matching[k];
      partner[static_cast<std::size_t>(matching[k].rank)][matching[k].index] = list[k];
    }
  }
  for (const auto& [channel, list] : recvs)
    if (!list.empty() && sends.find(channel) == sends.end())
      return fmt::format("{} receive(s) at rank {} from rank {} that nobody sends", list.size(), channel.second,
                         channel.first);

  // Rendezvous simulation: each rank sits at its first unfinished step.
  const std::size_t p = ranks.size();
  std::vector<std::size_t> cursor(p, 0);  // first op of the current step
  std::vector<std::vector<bool>> done(p);
  for (std::size_t r = 0; r < p; ++r) done[r].assign(ranks[r].ops.size(), false);
  auto in_current_step = [&](OpRef ref) {
    const auto& ops = ranks[static_cast<std::size_t>(ref.rank)].ops;
    const std::size_t c = cursor[static_cast<std::size_t>(ref.rank)];
    return c < ops.size() && ops[ref.index].step == ops[c].step;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t r = 0; r < p; ++r) {
      const auto& ops = ranks[r].ops;
      while (cursor[r] < ops.size()) {
        const std::uint32_t step = ops[cursor[r]].step;
        bool complete = true;
        std::size_t end = cursor[r];
        for (; end < ops.size() && ops[end].step == step; ++end) {
          if (done[r][end]) continue;
          const OpRef other = partner[r][end];
          if (other.rank < 0 || in_current_step(other)) {
            done[r][end] = true;
            if (other.rank >= 0) done[static_cast<std::size_t>(other.rank)][other.index] = true;
            progress = true;
          } else {
            complete = false;
          }
        }
        if (!complete) break;
        cursor[r] = end;
        progress = true;
      }
    }
  }
  for (std::size_t r = 0; r < p; ++r) {
    if (cursor[r] < ranks[r].ops.size()) {
      const auto& op = ranks[r].ops[cursor[r]];
      return fmt::format("deadlock: rank {} cannot finish step {} (operation {}, peer {})", r, op.step, cursor[r],
                         op.peer);
    }
  }
  return {};
}

}  // namespace pico::reference
