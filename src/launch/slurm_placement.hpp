// SPDX-License-Identifier: BSD-3-Clause
// How a process count maps onto a Slurm allocation: nodes x tasks per node.
// Checked when the run is planned, so a count the platform cannot host is
// bad input (exit 2) rather than a job that waits in the queue and then fails.
#pragma once

#include <vector>

#include "config/slurm_spec.hpp"

namespace pico {

struct StepPlacement {
  int np = 1;
  int nodes = 1;           // srun --nodes
  int tasks_per_node = 1;  // the most tasks any node gets (np spread in blocks)
};

// The fewest nodes that hold np tasks at ntasks_per_node each. Throws
// InputError at the platform's nodes setting when the allocation is too small.
StepPlacement place_step(int np, const SlurmSpec& slurm);

struct Allocation {
  int nodes = 1;
  int ntasks_per_node = 1;
};

// The allocation that hosts every process count: slurm.nodes, or as many
// nodes as the largest count needs when the platform leaves nodes unset.
Allocation allocation_for(const std::vector<int>& process_counts, const SlurmSpec& slurm);

}  // namespace pico
