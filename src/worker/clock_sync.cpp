// SPDX-License-Identifier: BSD-3-Clause
#include "worker/clock_sync.hpp"

#include <algorithm>

#include "harness/harness.hpp"

namespace pico {
namespace {

// The 90th percentile over barriers of last exit - first exit; exits rank-major (barriers per rank).
double barrier_stagger(const std::vector<double>& exits, int barriers) {
  const std::size_t n = static_cast<std::size_t>(barriers), ranks = exits.size() / n;
  std::vector<double> spreads(n);
  for (std::size_t b = 0; b < n; ++b) {
    double first = exits[b], last = exits[b];
    for (std::size_t r = 1; r < ranks; ++r) {
      first = std::min(first, exits[r * n + b]);
      last = std::max(last, exits[r * n + b]);
    }
    spreads[b] = last - first;
  }
  std::sort(spreads.begin(), spreads.end());
  return spreads[std::min(n - 1, n * 9 / 10)];
}

}  // namespace

LaunchClock synchronise_clocks(MPI_Comm harness) {
  LaunchClock clock;
  const std::vector<PingPong> rounds = harness::clock_ping_pong(harness, kClockSyncRounds);
  if (!rounds.empty()) clock.mine = estimate_offset(rounds);
  clock.max_residual_s = clock.mine.residual_s;
  harness::allreduce(harness, &clock.max_residual_s, 1, harness::Reduction::max);
  std::vector<double> exits(kStaggerBarriers);
  for (double& e : exits) {
    harness::barrier(harness);
    e = MPI_Wtime() - clock.mine.offset_s;
  }
  const std::vector<double> all_exits = harness::gather_doubles(harness, exits.data(), kStaggerBarriers);
  const double mine[2] = {clock.mine.offset_s, clock.mine.residual_s};
  const std::vector<double> all = harness::gather_doubles(harness, mine, 2);
  if (all.empty()) return clock;  // not rank 0
  clock.barrier_stagger_s = barrier_stagger(all_exits, kStaggerBarriers);
  nlohmann::json offsets = nlohmann::json::array(), residuals = nlohmann::json::array();
  for (std::size_t r = 0; r < all.size() / 2; ++r) {
    offsets.push_back(all[2 * r]);
    residuals.push_back(all[2 * r + 1]);
  }
  clock.record = {{"method", kClockSyncMethod},
                  {"rounds", kClockSyncRounds},
                  {"max_residual_s", clock.max_residual_s},
                  {"barrier_stagger_s", clock.barrier_stagger_s},
                  {"barrier_stagger_barriers", kStaggerBarriers},
                  {"offsets_s", offsets},
                  {"residuals_s", residuals}};
  return clock;
}

std::vector<std::string> rank_hosts(const nlohmann::json& launch_info) {
  std::vector<std::string> hosts;
  if (!launch_info.is_object() || !launch_info.contains("ranks")) return hosts;
  for (const auto& r : launch_info.at("ranks")) hosts.push_back(r.value("host", ""));
  return hosts;
}

}  // namespace pico
