// SPDX-License-Identifier: BSD-3-Clause
// NCCL's collectives, one function per pico collective with one signature, so
// that the backend binds the call once in prepare and run_once decides nothing.
// Alltoall, alltoallv, gather, scatter and sendrecv are grouped ncclSend/ncclRecv (NCCL's own recipe).
#pragma once

#include <cstddef>
#include <cstdint>

#include <nccl.h>

#include "core/types.hpp"

namespace pico::nccl {

// One NCCL group around `calls` (which returns the first failure among the
// calls it makes): the group is ended even after a failure, and the first
// error wins.
template <class Calls>
ncclResult_t grouped(Calls&& calls) {
  ncclResult_t r = ncclGroupStart();
  if (r == ncclSuccess) r = calls();
  const ncclResult_t end = ncclGroupEnd();
  return r != ncclSuccess ? r : end;
}

// Arguments of one call, resolved at prepare time (in-place pointers included).
struct NcclCallArgs {
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;        // elements per rank block
  std::size_t block_bytes = 0;  // count * element size
  ncclDataType_t type = ncclFloat32;
  ncclRedOp_t op = ncclSum;
  int root = 0;
  int rank = 0;
  int nranks = 1;
  int next = 0;  // ring neighbours (sendrecv): the rank sent to and the rank received from
  int prev = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  // A count-matrix collective's (alltoallv's) counts and displacements per
  // peer, in elements of element_bytes; the backend owns the arrays.
  const std::uint64_t* send_counts = nullptr;
  const std::uint64_t* send_displs = nullptr;
  const std::uint64_t* recv_counts = nullptr;
  const std::uint64_t* recv_displs = nullptr;
  std::size_t element_bytes = 0;
};

using NcclCall = ncclResult_t (*)(const NcclCallArgs&);

// The call for collective c; null for barrier (NCCL has none).
NcclCall nccl_call(Collective c);

// Where NCCL's in-place form of a collective reads its input and leaves this
// rank's result, where that is this rank's block of the receive buffer rather
// than its start: NCCL's allgather reads the rank's block of the result, its
// reduce_scatter leaves the result where the rank's input block was (MPI's,
// which pico's checks follow, at the start).
struct InPlaceBlocks {
  bool input_at_own_block;
  bool result_at_own_block;
};
InPlaceBlocks nccl_in_place_blocks(Collective c);

// Throws std::invalid_argument for a datatype NCCL lacks (int16).
ncclDataType_t nccl_datatype(Dtype d);
// ncclSum for Op::none: collectives without a reduction ignore it.
ncclRedOp_t nccl_op(Op o);

}  // namespace pico::nccl
