// SPDX-License-Identifier: BSD-3-Clause
// reduce: every rank contributes count elements; the root receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

// In place, the root's input starts in its receive buffer.
void fill(const RankBuffers& b) {
  const bool root_in_place = b.c.in_place && b.rank == b.c.root;
  b.elements.fill_reduce_input(root_in_place ? b.recv : b.send, b.rank, b.c.count);
  if (!root_in_place) b.elements.fill_reduce_sentinel(b.recv, 0, b.c.count, b.c.np);
}

std::uint64_t check(const RankBuffers& b) {
  if (b.rank != b.c.root) return 0;
  return b.elements.count_reduce_mismatches(b.recv, 0, b.c.count, b.c.np);
}

}  // namespace

extern const CollectiveSpec reduce_spec{
    .collective = Collective::reduce, .has_op = true, .root = RootRole::destination, .in_place = InPlaceSide::send,
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Reduce", .nonblocking = "MPI_Ireduce",
            .args = 7, .count = 2, .type = 3, .root = 5, .comm = 6},
    .names = {.ompi_tuned_id = 11, .ompi_json_key = "reduce", .ompi_size = SizeBasis::block,
              .mpich_csel = "Reduce", .mpich_size_key = "avg_msg_size", .mpich_size = SizeBasis::block,
              .intel_mpi_adjust = "I_MPI_ADJUST_REDUCE",
              .nccl_tuner = "reduce", .nccl_size = SizeBasis::block,
              .ucc = "reduce", .ucc_size = SizeBasis::block,
              .replay_default = "binomial"}};

}  // namespace pico::spec
