// SPDX-License-Identifier: BSD-3-Clause
// alltoallv: rank r sends at(r, q) elements to rank q, the counts taken from
// the case's count matrix (collectives/count_matrix.hpp); each buffer holds
// its blocks packed in rank order.
#include "collectives/count_matrix.hpp"
#include "collectives/spec_helpers.hpp"

namespace pico::spec {
namespace {

BufferSizes sizes(const Case& c, int rank) {
  const auto m = count_matrix(c);
  return {m->sent_by(rank), m->received_by(rank)};
}

// The send buffer holds payload(r, k) for k over the whole buffer, so the
// block for q starts at payload index send_displs[q]: a receiver knows both
// the source and the destination of what arrives.
void fill(const RankBuffers& b) {
  const VectorLayout l = vector_layout(*count_matrix(b.c), b.rank);
  b.elements.fill_payload(b.send, 0, b.rank, 0, l.send_total);
  for (int q = 0; q < b.c.np; ++q) {
    const auto i = static_cast<std::size_t>(q);
    b.elements.fill_payload_sentinel(b.recv, l.recv_displs[i], q, l.peer_send_displs[i], l.recv_counts[i]);
  }
}

std::uint64_t check(const RankBuffers& b) {
  const VectorLayout l = vector_layout(*count_matrix(b.c), b.rank);
  std::uint64_t bad = 0;
  for (int q = 0; q < b.c.np; ++q) {
    const auto i = static_cast<std::size_t>(q);
    bad += b.elements.count_payload_mismatches(b.recv, l.recv_displs[i], q, l.peer_send_displs[i], l.recv_counts[i]);
  }
  return bad;
}

}  // namespace

// Sizes and bandwidths are alltoall's, with the case's count the mean block:
// every pattern moves count * np blocks per rank on average. Open MPI's
// coll/tuned rules choose alltoallv by communicator size alone (message size
// 0 in coll_tuned_decision_dynamic.c); MPICH's tree compares the rank's total
// send bytes (csel.c get_total_msgsize). Intel MPI defines no message size for
// I_MPI_ADJUST_ALLTOALLV ranges, and NCCL's tuner and ASTRA-sim have no
// alltoallv. A trace's MPI_Alltoallv carries arrays, which the trace readers
// do not take (count is the position of the send counts array).
extern const CollectiveSpec alltoallv_spec{
    .collective = Collective::alltoallv, .count_matrix = true, .in_place = InPlaceSide::none,
    .no_in_place_reason = "MPI's in-place alltoallv sends what it receives (one count array), which only a symmetric "
                          "count matrix allows; pico's patterns are not symmetric",
    .buffer_sizes = sizes, .algbw_bytes_factor = factor_np, .busbw_factor = factor_ring,
    .fill = fill, .check = check,
    .mpi = {.function = "MPI_Alltoallv", .nonblocking = "MPI_Ialltoallv",
            .args = 9, .count = 1, .type = 3, .comm = 8, .count2 = 5, .type2 = 7},
    .names = {.ompi_tuned_id = 4, .ompi_json_key = "alltoallv", .ompi_size = SizeBasis::none,
              .mpich_csel = "Alltoallv", .mpich_size_key = "total_msg_size", .mpich_size = SizeBasis::comm_total,
              .replay_default = "linear"}};

}  // namespace pico::spec
