// SPDX-License-Identifier: BSD-3-Clause
#include "worker/rank_timing_record.hpp"

#include "core/rank_samples.hpp"
#include "core/rank_timing.hpp"
#include "harness/harness.hpp"
#include "worker/clock_sync.hpp"

namespace pico {
namespace {

// Every rank's result needs every rank's data, so no rank leaves before the
// last has entered and ranks leave together but for one that is slow: a rank
// leaving late is a straggler's sign. A root or a scan's last rank leaves last
// by the collective's own order.
bool exits_together(Collective c) {
  switch (c) {
    case Collective::allreduce:
    case Collective::allgather:
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::reduce_scatter:
    case Collective::barrier: return true;
    default: return false;
  }
}

}  // namespace

void record_rank_timing(const TimedSamples& timed, const CaseContext& ctx, CaseResult& r) {
  if (!ctx.timing.rank_timing) {
    r.rank_timing_off = true;  // said, so that no straggler reads as none
    return;
  }
  if (ctx.clock == nullptr || timed.entry_s.empty()) return;
  const std::size_t n = timed.entry_s.size();
  // On rank 0's clock: local - offset. Entries first, then exits.
  std::vector<double> mine(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    mine[i] = timed.entry_s[i] - ctx.clock->mine.offset_s;
    mine[n + i] = timed.exit_s[i] - ctx.clock->mine.offset_s;
  }
  const std::vector<double> all = harness::gather_doubles(ctx.harness, mine.data(), static_cast<int>(mine.size()));
  if (all.empty()) return;  // not rank 0
  RankTimes t;
  t.ranks = static_cast<int>(all.size() / (2 * n));
  t.samples = static_cast<std::int64_t>(n);
  t.arrival_s.reserve(all.size() / 2);
  t.exit_s.reserve(all.size() / 2);
  for (int k = 0; k < t.ranks; ++k) {
    const auto* rank_part = all.data() + static_cast<std::size_t>(k) * 2 * n;
    t.arrival_s.insert(t.arrival_s.end(), rank_part, rank_part + n);
    t.exit_s.insert(t.exit_s.end(), rank_part + n, rank_part + 2 * n);
  }
  const std::vector<std::string> no_hosts;
  const auto& hosts = ctx.rank_hosts != nullptr ? *ctx.rank_hosts : no_hosts;
  const bool together = exits_together(r.c.collective);
  const RankTimingBasis basis{.clock_residual_s = ctx.clock->max_residual_s,
                              .barrier_stagger_s = ctx.clock->barrier_stagger_s,
                              .judges_late_arrival = together || ctx.timing.mode == TimingMode::latency,
                              .judges_slow_progress = together};
  r.rank_timing = to_json(summarize_rank_times(t, hosts, basis));
  if (ctx.timing.keep_samples) r.rank_samples = compact_rank_samples(t);
}

}  // namespace pico
