// SPDX-License-Identifier: BSD-3-Clause
#include "core/rank_placement.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pico {

std::vector<std::size_t> RankPlacement::ranks_per_host(int np) const {
  const auto n = static_cast<std::size_t>(nodes(np));
  const auto ranks = static_cast<std::size_t>(np);
  std::vector<std::size_t> per_host(n);
  for (std::size_t i = 0; i < n; ++i)
    per_host[i] = fill != Fill::node_after_node ? ranks / n + (i < ranks % n ? 1 : 0)
                                        : std::min(static_cast<std::size_t>(ranks_per_node), ranks - i * ranks_per_node);
  if (n == 1) per_host[0] = ranks;
  return per_host;
}

bool RankPlacement::balanced(int np) const {
  const std::vector<std::size_t> per_host = ranks_per_host(np);
  return std::all_of(per_host.begin(), per_host.end(), [&](std::size_t n) { return n == per_host.front(); });
}

std::string placement_text(const std::vector<std::size_t>& per_host) {
  if (per_host.size() <= 1) return "1 node";
  if (std::all_of(per_host.begin(), per_host.end(), [&](std::size_t n) { return n == per_host.front(); }))
    return fmt::format("{} nodes x {} ranks", per_host.size(), per_host.front());
  return fmt::format("{} nodes ({} ranks)", per_host.size(), fmt::join(per_host, " + "));
}

std::string_view name(RankPlacement::Fill fill) {
  switch (fill) {
    case RankPlacement::Fill::evenly: return "evenly";
    case RankPlacement::Fill::cyclic: return "cyclic";
    case RankPlacement::Fill::node_after_node: break;
  }
  return "node after node";
}

nlohmann::json to_json(const RankPlacement& p) {
  return {{"ranks_per_node", p.ranks_per_node}, {"fill", name(p.fill)}, {"source", p.source}};
}

}  // namespace pico
