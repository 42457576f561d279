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
  if (!b.c.in_place) b.elements.fill_reduce_sentinel(b.recv, b.rank * b.c.count, b.c.count, b.c.np);
}

std::uint64_t check(const RankBuffers& b) {
  return b.elements.count_reduce_mismatches(b.recv, b.rank * b.c.count, b.c.count, b.c.np);
}

}  // namespace

extern const CollectiveSpec reduce_scatter_spec{
    .collective = Collective::reduce_scatter, .has_op = true, .in_place = InPlaceSide::send,
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Reduce_scatter_block", .nonblocking = "MPI_Ireduce_scatter_block",
            .args = 6, .count = 2, .type = 3, .comm = 5},
    .names = {.ompi_tuned_id = 13, .ompi_json_key = "reduce_scatter_block", .ompi_size = SizeBasis::comm_total,
              .intel_mpi_adjust = "I_MPI_ADJUST_REDUCE_SCATTER_BLOCK",
              .nccl_tuner = "reducescatter", .nccl_size = SizeBasis::comm_total,
              .ucc = "reduce_scatter", .ucc_size = SizeBasis::block,
              .astra_sim = "reduce-scatter",
              .chakra = "REDUCE_SCATTER", .chakra_size = SizeBasis::comm_total, .replay_default = "recursive_halving"}};

}  // namespace pico::spec
