// SPDX-License-Identifier: BSD-3-Clause
// allreduce: every rank contributes count elements and receives their reduction.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

void fill(const RankBuffers& b) { fill_reduction(b, b.c.np); }

std::uint64_t check(const RankBuffers& b) { return check_reduction(b, b.c.np); }

}  // namespace

extern const CollectiveSpec allreduce_spec{
    .collective = Collective::allreduce, .has_op = true, .in_place = InPlaceSide::send,
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_allreduce,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Allreduce", .nonblocking = "MPI_Iallreduce",
            .args = 6, .count = 2, .type = 3, .comm = 5},
    .names = {.ompi_tuned_id = 2, .ompi_json_key = "allreduce", .ompi_size = SizeBasis::block,
              .mpich_csel = "Allreduce", .mpich_size_key = "avg_msg_size", .mpich_size = SizeBasis::block,
              .intel_mpi_adjust = "I_MPI_ADJUST_ALLREDUCE",
              .nccl_tuner = "allreduce", .nccl_size = SizeBasis::block,
              .ucc = "allreduce", .ucc_size = SizeBasis::block,
              .astra_sim = "all-reduce",
              .chakra = "ALL_REDUCE", .chakra_size = SizeBasis::block, .replay_default = "recursive_doubling"}};

}  // namespace pico::spec
