// SPDX-License-Identifier: BSD-3-Clause
#include "launch/slurm_placement.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/rank_placement.hpp"
#include "support/input_error.hpp"

namespace pico {

StepPlacement place_step(int np, const SlurmSpec& slurm) {
  if (np < 1) throw InputError(slurm.file, 0, 0, fmt::format("process count {} is not positive", np), "use counts >= 1");
  const int per_node = slurm.ntasks_per_node;
  // srun --nodes=NODES --ntasks=np spreads them evenly: the plan's constraints read the same placement.
  const RankPlacement spread{per_node, RankPlacement::Fill::evenly, "slurm"};
  const int nodes = spread.nodes(np);
  if (slurm.nodes && nodes > *slurm.nodes)
    throw InputError(slurm.file, slurm.nodes_line, slurm.nodes_column,
                      fmt::format("process count {} needs {} node(s) at {} task(s) per node (slurm ntasks_per_node), "
                                  "but the platform allocates {} node(s) (slurm nodes)",
                                  np, nodes, per_node, *slurm.nodes),
                      fmt::format("raise slurm nodes to {} or ntasks_per_node to {}, or drop {} from the "
                                  "experiment's processes (or --np)",
                                  nodes, (np + *slurm.nodes - 1) / *slurm.nodes, np));
  return {np, nodes, static_cast<int>(spread.ranks_per_host(np).front())};
}

Allocation allocation_for(const std::vector<int>& process_counts, const SlurmSpec& slurm) {
  int nodes = 1;
  for (int np : process_counts) nodes = std::max(nodes, place_step(np, slurm).nodes);
  return {slurm.nodes.value_or(nodes), slurm.ntasks_per_node};
}

}  // namespace pico
