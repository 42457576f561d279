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
    .collective = Collective::barrier, .has_op = false, .has_payload = false, .root = RootRole::none,
    .in_place = InPlaceSide::none, .no_in_place_reason = "MPI defines no in-place form of barrier",
    .buffer_sizes = sizes, .algbw_bytes_factor = no_bandwidth, .busbw_factor = no_bandwidth,
    .fill = fill, .check = check};

}  // namespace pico::spec
