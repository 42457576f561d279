// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter (MPI_Reduce_scatter_block): every rank contributes np blocks
// of count elements; rank r receives the reduction of block r.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

std::uint64_t all_blocks(const Case& c) { return c.count * static_cast<std::uint64_t>(c.np); }

// In place, the input (all blocks) is in the receive buffer and the result lands in its first block.
BufferSizes sizes(const Case& c, int) { return {all_blocks(c), c.in_place ? all_blocks(c) : c.count}; }

void fill(const RankBuffers& b) {
  b.elements.fill_reduce_input(b.c.in_place ? b.recv : b.send, b.rank, all_blocks(b.c));
  if (!b.c.in_place) b.elements.fill_reduce_sentinel(b.recv, b.rank * b.c.count, b.c.count);
}

std::uint64_t check(const RankBuffers& b) {
  return b.elements.count_reduce_mismatches(b.recv, b.rank * b.c.count, b.c.count);
}

}  // namespace

extern const CollectiveSpec reduce_scatter_spec{
    .collective = Collective::reduce_scatter, .has_op = true, .has_payload = true, .root = RootRole::none,
    .in_place = InPlaceSide::send, .no_in_place_reason = "",
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check};

}  // namespace pico::spec
