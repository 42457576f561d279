// SPDX-License-Identifier: BSD-3-Clause
#include "worker/link_probe.hpp"

#include <algorithm>

#include "core/link_probe.hpp"
#include "harness/harness.hpp"

namespace pico {

nlohmann::json probe_links(MPI_Comm harness, const std::vector<std::string>& hosts) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(harness, &rank);
  MPI_Comm_size(harness, &ranks);
  const std::vector<int> rounds = probe_rounds(ranks);
  if (rounds.empty()) return nullptr;  // one rank: every rank returns here alike
  const double start = MPI_Wtime();
  // Allocated once, before any exchange; the payload's content does not matter.
  std::vector<unsigned char> out(static_cast<std::size_t>(kLinkProbeBytes), static_cast<unsigned char>(rank));
  std::vector<unsigned char> in(static_cast<std::size_t>(kLinkProbeBytes));
  std::vector<double> best(rounds.size(), -1.0);  // -1: sat the round out
  // The whole tournament once per repetition, not a pair's repetitions back to back: a burst of other work on
  // a host then spoils one of a pair's exchanges, not all of them, and the best of them misses it.
  for (int rep = 0; rep < kLinkProbeWarmups + kLinkProbeRepetitions; ++rep)
    for (std::size_t k = 0; k < rounds.size(); ++k) {
      const int partner = tournament_partner(rank, rounds[k], ranks);
      // Every pair of the round starts together, and no pair's exchange overlaps the next round's.
      harness::barrier(harness);
      if (partner < 0) continue;
      const double t = harness::exchange(harness, partner, out.data(), in.data(), static_cast<int>(kLinkProbeBytes));
      if (rep >= kLinkProbeWarmups) best[k] = best[k] < 0 ? t : std::min(best[k], t);
    }
  const std::vector<double> all = harness::gather_doubles(harness, best.data(), static_cast<int>(best.size()));
  if (all.empty()) return nullptr;  // not rank 0
  return link_probe_record(ranks, rounds, host_links(all, rounds, ranks, hosts), MPI_Wtime() - start);
}

}  // namespace pico
