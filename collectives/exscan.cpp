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
    .collective = Collective::exscan, .has_op = true, .in_place = InPlaceSide::send,
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Exscan", .nonblocking = "MPI_Iexscan",
            .args = 6, .count = 2, .type = 3, .comm = 5},
    .names = {.ompi_tuned_id = 8, .ompi_json_key = "exscan",
              .intel_mpi_adjust = "I_MPI_ADJUST_EXSCAN",
              .replay_default = "recursive_doubling"}};

}  // namespace pico::spec
