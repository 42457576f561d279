// SPDX-License-Identifier: BSD-3-Clause
#include "core/rank_placement.hpp"

#include <algorithm>
#include <climits>

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

std::optional<RankPlacement> placement_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto per_node = j.find("ranks_per_node");
  const auto fill = j.find("fill");
  if (per_node == j.end() || !per_node->is_number_integer() || per_node->get<long long>() < 0 ||
      per_node->get<long long>() > INT_MAX || fill == j.end() || !fill->is_string())
    return std::nullopt;
  RankPlacement p;
  p.ranks_per_node = static_cast<int>(per_node->get<long long>());
  for (const auto f : {RankPlacement::Fill::node_after_node, RankPlacement::Fill::evenly, RankPlacement::Fill::cyclic})
    if (name(f) == fill->get<std::string>()) p.fill = f;
  if (name(p.fill) != fill->get<std::string>()) return std::nullopt;
  const auto source = j.find("source");
  if (source != j.end() && source->is_string()) p.source = source->get<std::string>();
  return p;
}

}  // namespace pico
