// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv (MPI_Reduce_scatter): every rank contributes a vector of
// count elements; rank r receives the reduction of its recvcounts[r] elements
// of it. A size is the whole vector each rank reduces (bytes = count x the
// datatype's size: OSU's osu_reduce_scatter -m, nccl-tests' reduce_scatter
// size), not one rank's block as for reduce_scatter (MPI_Reduce_scatter_block).
// The vector is split as OSU splits it, in reference::Partition: count / np
// elements each, one more on the first count % np ranks (below np elements,
// one on each of the first count ranks and none on the others).
#include "collectives/reference/layout.hpp"
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

reference::Partition split(const Case& c) { return {c.count, c.np}; }

std::uint64_t rank_count(const Case& c, int rank) { return split(c).size(rank); }

// In place, the input (the whole vector) is in the receive buffer and the result lands at its start.
BufferSizes sizes(const Case& c, int rank) { return {c.count, c.in_place ? c.count : rank_count(c, rank)}; }

void fill(const RankBuffers& b) {
  b.elements.fill_reduce_input(b.c.in_place ? b.recv : b.send, b.rank, b.c.count);
  const reference::Partition part = split(b.c);
  if (!b.c.in_place) b.elements.fill_reduce_sentinel(b.recv, part.offset(b.rank), part.size(b.rank), b.c.np);
}

std::uint64_t check(const RankBuffers& b) {
  const reference::Partition part = split(b.c);
  return b.elements.count_reduce_mismatches(b.recv, part.offset(b.rank), part.size(b.rank), b.c.np);
}

}  // namespace

// Every library's rules compare the whole vector (the sum of recvcounts x
// the datatype's size) for MPI_Reduce_scatter: Open MPI's tuned
// (coll_tuned_decision_dynamic.c), MPICH's total_msg_size (csel.c), UCC's
// reduce_scatterv (ucc_coll_args_msgsize); so `block` here is the case's
// bytes. NCCL has no vector reduce-scatter, nor ASTRA-sim. A trace's
// MPI_Reduce_scatter carries its recvcounts as an array (count is its
// position), which the trace readers do not take.
extern const CollectiveSpec reduce_scatterv_spec{.collective = Collective::reduce_scatterv,
                                                 .rank_count = rank_count,
                                                 .has_op = true,
                                                 .in_place = InPlaceSide::send,
                                                 .buffer_sizes = sizes,
                                                 .algbw_bytes_factor = factor_one,
                                                 .busbw_factor = factor_ring,
                                                 .fill = fill,
                                                 .check = check,
                                                 .mpi = {.function = "MPI_Reduce_scatter",
                                                         .nonblocking = "MPI_Ireduce_scatter",
                                                         .args = 6,
                                                         .count = 2,
                                                         .type = 3,
                                                         .comm = 5},
                                                 .names = {.ompi_tuned_id = 12,
                                                           .ompi_json_key = "reduce_scatter",
                                                           .ompi_size = SizeBasis::block,
                                                           .mpich_csel = "Reduce_scatter",
                                                           .mpich_size_key = "total_msg_size",
                                                           .mpich_size = SizeBasis::block,
                                                           .mpich_op_guard = "is_commutative=no",
                                                           .intel_mpi_adjust = "I_MPI_ADJUST_REDUCE_SCATTER",
                                                           .ucc = "reduce_scatterv",
                                                           .ucc_size = SizeBasis::block,
                                                           .replay_default = "recursive_halving"}};

}  // namespace pico::spec
