// SPDX-License-Identifier: BSD-3-Clause
// sendrecv (nccl-tests' sendrecv_perf): every rank sends its count elements to
// rank r+1 and receives count elements from rank r-1 (mod np), at once. With
// np == 1 a rank sends to itself.
#include "collectives/spec_helpers.hpp"

namespace pico {

RingPeers sendrecv_peers(int rank, int np) { return {.next = (rank + 1) % np, .prev = (rank - 1 + np) % np}; }

namespace spec {
namespace {

// The rank whose block this rank receives.
int prev_rank(const RankBuffers& b) { return sendrecv_peers(b.rank, b.c.np).prev; }

// The payload names its source rank, so a block from any rank but r-1 fails the check.
void fill(const RankBuffers& b) {
  b.elements.fill_payload(b.send, 0, b.rank, 0, b.c.count);
  b.elements.fill_payload_sentinel(b.recv, 0, prev_rank(b), 0, b.c.count);
}

std::uint64_t check(const RankBuffers& b) {
  return b.elements.count_payload_mismatches(b.recv, 0, prev_rank(b), 0, b.c.count);
}

}  // namespace

// One block sent and one received per rank: S = count bytes, busbw = algbw (nccl-tests).
// MPI_Sendrecv_replace exists, but it is another call with one buffer; nccl-tests' sendrecv has no in-place form.
extern const CollectiveSpec sendrecv_spec{
    .collective = Collective::sendrecv, .point_to_point = true, .in_place = InPlaceSide::none,
    .no_in_place_reason = "sendrecv has no in-place form (MPI_Sendrecv takes two buffers)",
    .buffer_sizes = one_block_each, .algbw_bytes_factor = factor_one, .busbw_factor = factor_one,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Sendrecv", .nonblocking = "",
            .args = 12, .count = 1, .type = 2, .comm = 10, .count2 = 6, .type2 = 7},
    .names = {}};

}  // namespace spec
}  // namespace pico
