// What is specific to each collective, independent of the backend that runs
// it (nccl-tests style): buffer sizes, the bandwidth factors, how to fill the
// validation inputs and how to check the result. One file per collective.
#pragma once

#include <cstddef>
#include <cstdint>

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

struct CollectiveSpec {
  Collective collective;
  BufferSizes (*buffer_sizes)(const Case& c, int rank);
  // Bytes S in algbw = S / time, as a multiple of the case's per-rank block bytes.
  double (*algbw_bytes_factor)(int np);
  // nccl-tests bus bandwidth factor: busbw = algbw * busbw_factor.
  double (*busbw_factor)(int np);
  // Writes the validation inputs; output regions get values unequal to the expected result.
  void (*fill)(const RankBuffers& b);
  // Number of elements of this rank's result that differ from the closed form.
  std::uint64_t (*check)(const RankBuffers& b);
};

const CollectiveSpec& spec_for(Collective c);

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
