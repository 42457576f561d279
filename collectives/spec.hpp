// SPDX-License-Identifier: BSD-3-Clause
// What is specific to each collective, independent of the backend that runs
// it (nccl-tests style): whether it reduces, moves a payload, has a root and
// an in-place form; buffer sizes, the bandwidth factors, how to fill the
// validation inputs and how to check the result; and every other tool's name
// for it: the MPI binding traces record, each library's tuning key and the
// simulators' names. One file per collective (collectives/<name>.cpp);
// callers ask the spec rather than compare collectives, so that a new one
// states each of these facts in one place. Beside its file a collective is a
// word in core/types.hpp, a row in each backend's call table and an entry in
// the catalogues (docs/architecture.md, "Adding a collective").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/case.hpp"

namespace pico {

// Element counts of one rank's buffers. Rooted collectives allocate on every
// rank so that buffers are never null.
struct BufferSizes {
  std::uint64_t send = 0;
  std::uint64_t recv = 0;
};

class ElementOps;

// Where a rank's buffers live and who it is, for fill and check; `elements`
// writes and checks them where they live (host or device memory).
struct RankBuffers {
  const Case& c;
  int rank;
  void* send;
  void* recv;
  const ElementOps& elements;
};

// The buffer a rank passes as MPI_IN_PLACE in a collective's in-place form.
enum class InPlaceSide { none, send, recv };

// What the root of a rooted collective does: provide the data the others
// receive (bcast, scatter) or alone receive the result (reduce, gather).
enum class RootRole { none, source, destination };

// How a library's tuning rules measure a collective's message, from the
// case's bytes (one rank's block).
enum class SizeBasis {
  untuned,     // the library has no size rules for it: an export refuses the collective
  block,       // the block itself
  comm_total,  // the block times the communicator size
  none,        // rules by communicator size alone (barrier): the size is 0
};

// The MPI C binding of the collective, as pico calls it and traces record it:
// the blocking and MPI_I names, and the 0-based positions of its arguments
// (-1: absent). count/type are the send side (or the only side), count2/type2
// the receive side.
struct MpiBinding {
  std::string_view function;
  std::string_view nonblocking;
  // Argument positions (0-based); -1 where the call has no such argument.
  std::int8_t args, count, type, root = -1, comm, count2 = -1, type2 = -1;
};

// Each library's and tool's name or number for the collective ("" or -1
// where it has none).
struct ToolNames {
  // Open MPI coll/tuned: the index in coll_base_functions.h's COLLCOUNT enum
  // (the classic rules file), the key in main/6.0's JSON rules, the size it compares.
  int ompi_tuned_id = -1;
  std::string_view ompi_json_key = {};
  SizeBasis ompi_size = SizeBasis::untuned;
  // MPICH's selection tree (src/mpi/coll/src/csel.c): collective name and message-size key.
  std::string_view mpich_csel = {};
  std::string_view mpich_size_key = {};
  SizeBasis mpich_size = SizeBasis::untuned;
  // The test that keeps a call pico did not tune on the library's own choice
  // (a reduction's user ops): csel.c asks is_op_built_in of allreduce and
  // reduce only (any other collective asserts there); reduce_scatter's tree
  // asks is_commutative.
  std::string_view mpich_op_guard = "is_op_built_in=no";
  std::string_view intel_mpi_adjust = {};  // Intel MPI's I_MPI_ADJUST_<X> variable
  // NCCL's tuner plugin CSV names (lowercase ncclFunc) and the nBytes it passes.
  std::string_view nccl_tuner = {};
  SizeBasis nccl_size = SizeBasis::untuned;
  // UCC_TL_UCP_TUNE's collective token and message size (destination count x type size).
  std::string_view ucc = {};
  SizeBasis ucc_size = SizeBasis::untuned;
  std::string_view astra_sim = {};  // ASTRA-sim's system file: "<x>-implementation"
  // The collective node of an ASTRA-sim workload (pico replay --format
  // chakra): Chakra's CollectiveCommType name (et_def.proto) and the
  // comm_size ASTRA-sim reads; "" (untuned) where ASTRA-sim runs no such
  // node and pico writes the schedule's messages out instead.
  std::string_view chakra = {};
  SizeBasis chakra_size = SizeBasis::untuned;
  // The reference algorithm a replay runs where no profile chooses (ATLAHS's defaults).
  std::string_view replay_default = {};
};

// Each spec file sets its members with designated initialisers. A member with
// a default (here and in MpiBinding and ToolNames: what most collectives are,
// or "none" for a tool's name) is set only where a collective differs, so a
// new member with a default touches only those; a member without one must be
// set by every spec: -Wmissing-field-initializers (an error here) names a
// spec that leaves it out.
struct CollectiveSpec {
  Collective collective;
  // Point to point (sendrecv): no collective algorithm to choose, a trace's
  // MPI_Sendrecv is a matched message pair, the model fits its latency and gap on it.
  bool point_to_point = false;
  // Each rank sends each peer its own count (alltoallv): the counts come from
  // the case's count matrix (collectives/count_matrix.hpp, the `counts`
  // option), and the case's count is the matrix's mean block.
  bool count_matrix = false;
  // The elements of the result rank `rank` receives, where they differ by rank
  // (reduce_scatterv: MPI_Reduce_scatter's recvcounts, an array every rank
  // passes whole); null where each rank's is the case's count or a count
  // matrix's. A descriptor with one sets the buffers, fill and check from it;
  // the MPI backend passes the array.
  std::uint64_t (*rank_count)(const Case& c, int rank) = nullptr;
  bool has_op = false;      // combines data with a reduction operation (the case's op)
  bool has_payload = true;  // moves data: has a datatype, counts and validation (all but barrier)
  RootRole root = RootRole::none;
  // What each rank passes as MPI_IN_PLACE in the in-place form (of a rooted
  // collective, the root alone: MPI's rule); none where there is no in-place
  // form, and then no_in_place_reason says why.
  InPlaceSide in_place;
  std::string_view no_in_place_reason = {};
  BufferSizes (*buffer_sizes)(const Case& c, int rank);
  // Bytes S in algbw = S / time, as a multiple of the case's per-rank block bytes.
  double (*algbw_bytes_factor)(int np);
  // nccl-tests bus bandwidth factor: busbw = algbw * busbw_factor.
  double (*busbw_factor)(int np);
  // Writes the validation inputs; output regions get values unequal to the expected result.
  void (*fill)(const RankBuffers& b);
  // Number of elements of this rank's result that differ from the closed form.
  std::uint64_t (*check)(const RankBuffers& b);
  MpiBinding mpi;
  ToolNames names;

  bool supports_in_place() const { return in_place != InPlaceSide::none; }
  bool rooted() const { return root != RootRole::none; }
};

const CollectiveSpec& spec_for(Collective c);

// What a library's rules compare per byte of one rank's block, by its SizeBasis:
// 1, the communicator size, or 0 (barrier).
std::uint64_t size_factor(SizeBasis basis, int comm_size);

// pico's names of the collectives whose descriptor `keep` accepts (all by
// default), in declaration order, for help texts and refusals: "allreduce,
// bcast or barrier" (`last` joins the last two).
std::string collective_names(bool (*keep)(const CollectiveSpec&) = nullptr, std::string_view last = "or");

// The buffer `rank` passes as MPI_IN_PLACE in case c: none unless the case
// runs in place, and for a rooted collective none but at the root.
InPlaceSide in_place_side(const Case& c, int rank);

// sendrecv's ring (nccl-tests'): the rank this rank sends to and the one it
// receives from, mod np; both are the rank itself when np == 1.
struct RingPeers {
  int next = 0;
  int prev = 0;
};
RingPeers sendrecv_peers(int rank, int np);

// Bandwidths in GB/s (1e9 bytes) for a case that took `seconds`; 0 for barrier.
double algbw_GBps(const Case& c, double seconds);
double busbw_GBps(const Case& c, double seconds);

}  // namespace pico
