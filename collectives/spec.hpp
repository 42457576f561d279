// SPDX-License-Identifier: BSD-3-Clause
// What is specific to each collective, independent of the backend that runs
// it (nccl-tests style): whether it reduces, moves a payload, has a root and
// an in-place form; buffer sizes, the bandwidth factors, how to fill the
// validation inputs and how to check the result. One file per collective;
// callers ask the spec rather than compare collectives, so that a new one
// states each of these facts in one place.
#pragma once

#include <cstddef>
#include <cstdint>
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

// Every member is set by each spec file with designated initialisers and none
// has a default, so that -Wmissing-field-initializers (an error here) names a
// spec that leaves a fact out.
struct CollectiveSpec {
  Collective collective;
  bool has_op;       // combines data with a reduction operation (the case's op)
  bool has_payload;  // moves data: has a datatype, counts and validation (all but barrier)
  RootRole root;
  // What each rank passes as MPI_IN_PLACE in the in-place form (of a rooted
  // collective, the root alone: MPI's rule); none where there is no in-place
  // form, and then no_in_place_reason says why.
  InPlaceSide in_place;
  std::string_view no_in_place_reason;
  BufferSizes (*buffer_sizes)(const Case& c, int rank);
  // Bytes S in algbw = S / time, as a multiple of the case's per-rank block bytes.
  double (*algbw_bytes_factor)(int np);
  // nccl-tests bus bandwidth factor: busbw = algbw * busbw_factor.
  double (*busbw_factor)(int np);
  // Writes the validation inputs; output regions get values unequal to the expected result.
  void (*fill)(const RankBuffers& b);
  // Number of elements of this rank's result that differ from the closed form.
  std::uint64_t (*check)(const RankBuffers& b);

  bool supports_in_place() const { return in_place != InPlaceSide::none; }
  bool rooted() const { return root != RootRole::none; }
};

const CollectiveSpec& spec_for(Collective c);

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
