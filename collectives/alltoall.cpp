// SPDX-License-Identifier: BSD-3-Clause
// alltoall: rank r sends its block q to rank q; block q of rank r's result comes from rank q.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

std::uint64_t all_blocks(const Case& c) { return c.count * static_cast<std::uint64_t>(c.np); }

BufferSizes sizes(const Case& c, int) { return {all_blocks(c), all_blocks(c)}; }

// Rank r's block q holds payload(r, q*count + k), so the receiver can tell both source and destination.
// In place, the outgoing blocks start in the receive buffer.
void fill(const RankBuffers& b) {
  if (b.c.in_place) {
    b.elements.fill_payload(b.recv, 0, b.rank, 0, all_blocks(b.c));
    return;
  }
  b.elements.fill_payload(b.send, 0, b.rank, 0, all_blocks(b.c));
  for (int q = 0; q < b.c.np; ++q)
    b.elements.fill_payload_sentinel(b.recv, q * b.c.count, q, b.rank * b.c.count, b.c.count);
}

// Block q holds the part of rank q's send buffer addressed to this rank.
std::uint64_t check(const RankBuffers& b) { return count_rank_block_mismatches(b, b.rank * b.c.count); }

}  // namespace

extern const CollectiveSpec alltoall_spec{
    .collective = Collective::alltoall, .in_place = InPlaceSide::send,
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Alltoall", .nonblocking = "MPI_Ialltoall",
            .args = 7, .count = 1, .type = 2, .comm = 6, .count2 = 4, .type2 = 5},
    .names = {.ompi_tuned_id = 3, .ompi_json_key = "alltoall", .ompi_size = SizeBasis::comm_total,
              .mpich_csel = "Alltoall", .mpich_size_key = "avg_msg_size", .mpich_size = SizeBasis::block,
              .intel_mpi_adjust = "I_MPI_ADJUST_ALLTOALL",
              .ucc = "alltoall", .ucc_size = SizeBasis::comm_total,
              .astra_sim = "all-to-all",
              .chakra = "ALL_TO_ALL", .chakra_size = SizeBasis::comm_total, .replay_default = "linear"}};

}  // namespace pico::spec
