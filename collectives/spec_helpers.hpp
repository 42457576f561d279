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

// Mismatches in a receive buffer of np blocks in rank order (allgather,
// gather, alltoall): block q holds rank q's payload from element `source_first`.
inline std::uint64_t count_rank_block_mismatches(const RankBuffers& b, std::uint64_t source_first) {
  std::uint64_t bad = 0;
  for (int q = 0; q < b.c.np; ++q)
    bad += b.elements.count_payload_mismatches(b.recv, q * b.c.count, q, source_first, b.c.count);
  return bad;
}

}  // namespace pico::spec
