// SPDX-License-Identifier: BSD-3-Clause
// What the per-collective spec files share: the common bandwidth factors and
// the element steps (collectives/element_ops.hpp) they compose.
#pragma once

#include <cstdint>

#include "collectives/element_ops.hpp"
#include "collectives/spec.hpp"

namespace pico::spec {

inline double factor_one(int) { return 1.0; }
inline double factor_np(int np) { return np; }
inline double factor_ring(int np) { return np > 0 ? static_cast<double>(np - 1) / np : 0.0; }
inline double factor_allreduce(int np) { return 2.0 * factor_ring(np); }

// One block of count elements in each buffer (allreduce, reduce, scan, exscan, sendrecv).
inline BufferSizes one_block_each(const Case& c, int) { return {c.count, c.count}; }

// A reduction whose result is this rank's whole receive buffer and reduces
// ranks 0..ranks-1 (allreduce: all np; scan: 0..r; exscan: 0..r-1, none at
// rank 0, whose result MPI leaves undefined). In place, the input starts in
// the receive buffer.
inline void fill_reduction(const RankBuffers& b, int ranks) {
  b.elements.fill_reduce_input(b.c.in_place ? b.recv : b.send, b.rank, b.c.count);
  if (!b.c.in_place && ranks > 0) b.elements.fill_reduce_sentinel(b.recv, 0, b.c.count, ranks);
}
inline std::uint64_t check_reduction(const RankBuffers& b, int ranks) {
  return ranks > 0 ? b.elements.count_reduce_mismatches(b.recv, 0, b.c.count, ranks) : 0;
}

// Mismatches in a receive buffer of np blocks in rank order (allgather,
// gather, alltoall): block q holds rank q's payload from element `source_first`.
inline std::uint64_t count_rank_block_mismatches(const RankBuffers& b, std::uint64_t source_first) {
  std::uint64_t bad = 0;
  for (int q = 0; q < b.c.np; ++q)
    bad += b.elements.count_payload_mismatches(b.recv, q * b.c.count, q, source_first, b.c.count);
  return bad;
}

}  // namespace pico::spec
