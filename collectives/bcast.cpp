// SPDX-License-Identifier: BSD-3-Clause
// bcast: the root's count elements reach every rank (one buffer, in and out).
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int) { return {0, c.count}; }

void fill(const RankBuffers& b) {
  if (b.rank == b.c.root)
    b.elements.fill_payload(b.recv, 0, b.c.root, 0, b.c.count);
  else
    b.elements.fill_payload_sentinel(b.recv, 0, b.c.root, 0, b.c.count);
}

std::uint64_t check(const RankBuffers& b) {
  return b.elements.count_payload_mismatches(b.recv, 0, b.c.root, 0, b.c.count);
}

}  // namespace

extern const CollectiveSpec bcast_spec{
    .collective = Collective::bcast, .root = RootRole::source,
    .in_place = InPlaceSide::none, .no_in_place_reason = "MPI defines no in-place form of bcast",
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Bcast", .nonblocking = "MPI_Ibcast",
            .args = 5, .count = 1, .type = 2, .root = 3, .comm = 4},
    .names = {.ompi_tuned_id = 7, .ompi_json_key = "bcast", .ompi_size = SizeBasis::block,
              .mpich_csel = "Bcast", .mpich_size_key = "avg_msg_size", .mpich_size = SizeBasis::block,
              .intel_mpi_adjust = "I_MPI_ADJUST_BCAST",
              .nccl_tuner = "broadcast", .nccl_size = SizeBasis::block,
              .ucc = "bcast", .ucc_size = SizeBasis::block,
              .replay_default = "binomial"}};

}  // namespace pico::spec
