// SPDX-License-Identifier: BSD-3-Clause
// allreduce: every rank contributes count elements and receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count}; }

// In place, the input starts in the receive buffer.
void fill(const RankBuffers& b) {
  b.elements.fill_reduce_input(b.c.in_place ? b.recv : b.send, b.rank, b.c.count);
  if (!b.c.in_place) b.elements.fill_reduce_sentinel(b.recv, 0, b.c.count);
}

std::uint64_t check(const RankBuffers& b) { return b.elements.count_reduce_mismatches(b.recv, 0, b.c.count); }

}  // namespace

extern const CollectiveSpec allreduce_spec{
    .collective = Collective::allreduce, .has_op = true, .has_payload = true, .root = RootRole::none,
    .in_place = InPlaceSide::send, .no_in_place_reason = "",
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_one, .busbw_factor = factor_allreduce,
    .fill = fill, .check = check};

}  // namespace pico::spec
