// SPDX-License-Identifier: BSD-3-Clause
// allgather: every rank contributes count elements; all receive all np blocks in rank order.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {c.count, c.count * static_cast<std::uint64_t>(c.np)}; }

// In place, each rank's own block starts at its position in the receive buffer.
void fill(const RankBuffers& b) {
  if (!b.c.in_place) b.elements.fill_payload(b.send, 0, b.rank, 0, b.c.count);
  for (int q = 0; q < b.c.np; ++q) {
    if (b.c.in_place && q == b.rank)
      b.elements.fill_payload(b.recv, q * b.c.count, q, 0, b.c.count);
    else
      b.elements.fill_payload_sentinel(b.recv, q * b.c.count, q, 0, b.c.count);
  }
}

std::uint64_t check(const RankBuffers& b) { return count_rank_block_mismatches(b, 0); }

}  // namespace

extern const CollectiveSpec allgather_spec{
    .collective = Collective::allgather, .in_place = InPlaceSide::send,
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Allgather", .nonblocking = "MPI_Iallgather",
            .args = 7, .count = 1, .type = 2, .comm = 6, .count2 = 4, .type2 = 5},
    .names = {.ompi_tuned_id = 0, .ompi_json_key = "allgather", .ompi_size = SizeBasis::comm_total,
              .mpich_csel = "Allgather", .mpich_size_key = "total_msg_size", .mpich_size = SizeBasis::comm_total,
              .intel_mpi_adjust = "I_MPI_ADJUST_ALLGATHER",
              .nccl_tuner = "allgather", .nccl_size = SizeBasis::comm_total,
              .ucc = "allgather", .ucc_size = SizeBasis::comm_total,
              // ATLAHS replays allgather as a dissemination, which Bruck is.
              .astra_sim = "all-gather",
              .chakra = "ALL_GATHER", .chakra_size = SizeBasis::block, .replay_default = "bruck"}};

}  // namespace pico::spec
