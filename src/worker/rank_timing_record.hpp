// SPDX-License-Identifier: BSD-3-Clause
// A case's per-rank timing, after its timed loop: every rank's entry and exit
// gathered to rank 0 on rank 0's clock, summarised (the record's
// rank_timing) and, with timing.keep_samples, kept compact (rank_samples).
#pragma once

#include "core/case_result.hpp"
#include "worker/case_runner.hpp"
#include "worker/timing_loop.hpp"

namespace pico {

// Collective over ctx.harness; fills r on rank 0. Nothing where the samples
// have no entry and exit (a backend timed on the device) or no clock was
// synchronised; with timing.rank_timing off, no gather and r.rank_timing_off.
void record_rank_timing(const TimedSamples& timed, const CaseContext& ctx, CaseResult& r);

}  // namespace pico
