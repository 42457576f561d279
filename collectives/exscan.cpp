// SPDX-License-Identifier: BSD-3-Clause
// exscan (MPI_Exscan, exclusive prefix reduction): every rank contributes
// count elements; rank r > 0 receives the reduction of ranks 0..r-1, and rank
// 0's receive buffer is left undefined (MPI), so it is neither set nor checked.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

// Rank r's result reduces ranks 0..r-1: none at rank 0, which is neither set nor checked.
void fill(const RankBuffers& b) { fill_reduction(b, b.rank); }

std::uint64_t check(const RankBuffers& b) { return check_reduction(b, b.rank); }

}  // namespace

// The libraries' rules cannot hold a per-size choice, as for scan (scan.cpp).
extern const CollectiveSpec exscan_spec{
    .collective = Collective::exscan, .point_to_point = false, .count_matrix = false,
    .has_op = true, .has_payload = true, .root = RootRole::none,
    .in_place = InPlaceSide::send, .no_in_place_reason = "",
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Exscan", .nonblocking = "MPI_Iexscan",
            .args = 6, .count = 2, .type = 3, .root = -1, .comm = 5, .count2 = -1, .type2 = -1},
    .names = {.ompi_tuned_id = 8, .ompi_json_key = "exscan", .ompi_size = SizeBasis::untuned,
              .mpich_csel = "", .mpich_size_key = "", .mpich_size = SizeBasis::untuned,
              .intel_mpi_adjust = "I_MPI_ADJUST_EXSCAN",
              .nccl_tuner = "", .nccl_size = SizeBasis::untuned,
              .ucc = "", .ucc_size = SizeBasis::untuned,
              .astra_sim = "",
              .chakra = "", .chakra_size = SizeBasis::untuned, .replay_default = "recursive_doubling"}};

}  // namespace pico::spec
