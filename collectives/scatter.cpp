// SPDX-License-Identifier: BSD-3-Clause
// scatter: the root holds np blocks of count elements; rank r receives block r.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count * static_cast<std::uint64_t>(c.np), c.count}; }

void fill(const RankBuffers& b) {
  if (b.rank == b.c.root) b.elements.fill_payload(b.send, 0, b.c.root, 0, b.c.count * b.c.np);
  b.elements.fill_payload_sentinel(b.recv, 0, b.c.root, b.rank * b.c.count, b.c.count);
}

// In place, the root's block stays where it is in the send buffer.
std::uint64_t check(const RankBuffers& b) {
  const std::uint64_t first = b.rank * b.c.count;
  if (b.c.in_place && b.rank == b.c.root)
    return b.elements.count_payload_mismatches(b.send, first, b.c.root, first, b.c.count);
  return b.elements.count_payload_mismatches(b.recv, 0, b.c.root, first, b.c.count);
}

}  // namespace

extern const CollectiveSpec scatter_spec{
    .collective = Collective::scatter, .root = RootRole::source, .in_place = InPlaceSide::recv,
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Scatter", .nonblocking = "MPI_Iscatter",
            .args = 8, .count = 1, .type = 2, .root = 6, .comm = 7, .count2 = 4, .type2 = 5},
    .names = {.ompi_tuned_id = 15, .ompi_json_key = "scatter", .ompi_size = SizeBasis::comm_total,
              .intel_mpi_adjust = "I_MPI_ADJUST_SCATTER",
              .ucc = "scatter", .ucc_size = SizeBasis::block,
              .replay_default = "binomial"}};

}  // namespace pico::spec
