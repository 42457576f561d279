// SPDX-License-Identifier: BSD-3-Clause
// scan (MPI_Scan, inclusive prefix reduction): every rank contributes count
// elements; rank r receives the reduction of ranks 0..r.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

// Rank r's result reduces ranks 0..r.
void fill(const RankBuffers& b) { fill_reduction(b, b.rank + 1); }

std::uint64_t check(const RankBuffers& b) { return check_reduction(b, b.rank + 1); }

}  // namespace

// Open MPI's coll/tuned rules for scan compare the datatype size times the
// communicator size, not the message (coll_tuned_decision_dynamic.c), and
// MPICH's selection tree has no size key for it: neither can hold a per-size
// choice. NCCL, UCC and ASTRA-sim have no scan. The bandwidth factors are 1:
// nccl-tests has no scan to follow.
extern const CollectiveSpec scan_spec{
    .collective = Collective::scan, .has_op = true, .in_place = InPlaceSide::send,
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Scan", .nonblocking = "MPI_Iscan",
            .args = 6, .count = 2, .type = 3, .comm = 5},
    .names = {.ompi_tuned_id = 14, .ompi_json_key = "scan",
              .intel_mpi_adjust = "I_MPI_ADJUST_SCAN",
              .replay_default = "recursive_doubling"}};

}  // namespace pico::spec
