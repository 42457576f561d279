// SPDX-License-Identifier: BSD-3-Clause
// The timed loop and its adaptive stopping rule (docs/methodology.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "backends/backend.hpp"
#include "config/experiment.hpp"

namespace pico {

struct TimedSamples {
  std::vector<double> samples_s;  // per iteration, the slowest rank's time
  std::string stop_reason;        // target_ci | time_budget | max_iterations
  std::int64_t calls = 0;         // library calls made, warm-up included (what the interposer counts)
  // This rank's own entry and exit of each sample on its MPI_Wtime (per-rank
  // timing); empty for a backend timed on the device, or with timing.rank_timing off.
  std::vector<double> entry_s;
  std::vector<double> exit_s;
};

// How spec's samples are taken (mode, calls_per_sample, graph).
Pacing pacing_of(const TimingSpec& spec);

// Runs spec.warmup untimed samples, then timed batches until the stopping rule
// holds. Collective over `harness` (which the backend never uses); every rank
// returns the same samples and reason.
TimedSamples run_timed(Backend& backend, const TimingSpec& spec, MPI_Comm harness);

}  // namespace pico
