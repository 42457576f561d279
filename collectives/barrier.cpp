// SPDX-License-Identifier: BSD-3-Clause
// barrier: no payload; nothing to fill or check, no bandwidth.
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case&, int) { return {0, 0}; }
double no_bandwidth(int) { return 0.0; }
void fill(const RankBuffers&) {}
std::uint64_t check(const RankBuffers&) { return 0; }

}  // namespace

extern const CollectiveSpec barrier_spec{
    .collective = Collective::barrier, .has_payload = false,
    .in_place = InPlaceSide::none, .no_in_place_reason = "MPI defines no in-place form of barrier",
    .buffer_sizes = sizes, .algbw_bytes_factor = no_bandwidth, .busbw_factor = no_bandwidth,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Barrier", .nonblocking = "MPI_Ibarrier",
            .args = 1, .count = -1, .type = -1, .comm = 0},
    .names = {.ompi_tuned_id = 6, .ompi_json_key = "barrier", .ompi_size = SizeBasis::none,
              .intel_mpi_adjust = "I_MPI_ADJUST_BARRIER",
              .ucc = "barrier", .ucc_size = SizeBasis::block,
              .replay_default = "dissemination"}};

}  // namespace pico::spec
