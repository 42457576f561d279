// SPDX-License-Identifier: BSD-3-Clause
// gather: every rank contributes count elements; the root receives all np blocks in rank order.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count * static_cast<std::uint64_t>(c.np)}; }

// In place, the root's own block starts at its position in the receive buffer.
void fill(const RankBuffers& b) {
  const bool root_in_place = b.c.in_place && b.rank == b.c.root;
  if (!root_in_place) b.elements.fill_payload(b.send, 0, b.rank, 0, b.c.count);
  for (int q = 0; q < b.c.np; ++q) {
    if (root_in_place && q == b.rank)
      b.elements.fill_payload(b.recv, q * b.c.count, q, 0, b.c.count);
    else
      b.elements.fill_payload_sentinel(b.recv, q * b.c.count, q, 0, b.c.count);
  }
}

std::uint64_t check(const RankBuffers& b) { return b.rank == b.c.root ? count_rank_block_mismatches(b, 0) : 0; }

}  // namespace

extern const CollectiveSpec gather_spec{
    .collective = Collective::gather, .root = RootRole::destination, .in_place = InPlaceSide::send,
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Gather", .nonblocking = "MPI_Igather",
            .args = 8, .count = 1, .type = 2, .root = 6, .comm = 7, .count2 = 4, .type2 = 5},
    .names = {.ompi_tuned_id = 9, .ompi_json_key = "gather", .ompi_size = SizeBasis::comm_total,
              .intel_mpi_adjust = "I_MPI_ADJUST_GATHER",
              .ucc = "gather", .ucc_size = SizeBasis::comm_total,
              .replay_default = "binomial"}};

}  // namespace pico::spec
