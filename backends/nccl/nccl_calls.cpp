// SPDX-License-Identifier: BSD-3-Clause
#include "backends/nccl/nccl_calls.hpp"

#include <stdexcept>
#include <string>

namespace pico::nccl {
namespace {

const std::byte* block(const void* base, std::size_t bytes, int index) {
  return static_cast<const std::byte*>(base) + bytes * static_cast<std::size_t>(index);
}
std::byte* block(void* base, std::size_t bytes, int index) {
  return static_cast<std::byte*>(base) + bytes * static_cast<std::size_t>(index);
}

ncclResult_t allreduce(const NcclCallArgs& a) {
  return ncclAllReduce(a.send, a.recv, a.count, a.type, a.op, a.comm, a.stream);
}

// pico's bcast buffer is recv on every rank (the root's holds the data): NCCL's in-place form.
ncclResult_t bcast(const NcclCallArgs& a) {
  return ncclBroadcast(a.recv, a.recv, a.count, a.type, a.root, a.comm, a.stream);
}

ncclResult_t reduce(const NcclCallArgs& a) {
  return ncclReduce(a.send, a.recv, a.count, a.type, a.op, a.root, a.comm, a.stream);
}

ncclResult_t allgather(const NcclCallArgs& a) {
  return ncclAllGather(a.send, a.recv, a.count, a.type, a.comm, a.stream);
}

ncclResult_t reduce_scatter(const NcclCallArgs& a) {
  return ncclReduceScatter(a.send, a.recv, a.count, a.type, a.op, a.comm, a.stream);
}

// Every rank sends block q to rank q and receives rank q's block into block q.
ncclResult_t alltoall(const NcclCallArgs& a) {
  return grouped([&a] {
    ncclResult_t r = ncclSuccess;
    for (int q = 0; q < a.nranks && r == ncclSuccess; ++q) {
      r = ncclSend(block(a.send, a.block_bytes, q), a.count, a.type, q, a.comm, a.stream);
      if (r == ncclSuccess) r = ncclRecv(block(a.recv, a.block_bytes, q), a.count, a.type, q, a.comm, a.stream);
    }
    return r;
  });
}

// nccl-tests' alltoallv: one send and one receive per peer with this rank's
// counts, at its displacements; empty blocks are skipped (NCCL would post a
// zero-byte message for each).
ncclResult_t alltoallv(const NcclCallArgs& a) {
  return grouped([&a] {
    ncclResult_t r = ncclSuccess;
    for (int q = 0; q < a.nranks && r == ncclSuccess; ++q) {
      const auto i = static_cast<std::size_t>(q);
      const std::byte* out = static_cast<const std::byte*>(a.send) + a.element_bytes * a.send_displs[i];
      std::byte* in = static_cast<std::byte*>(a.recv) + a.element_bytes * a.recv_displs[i];
      if (a.send_counts[i] != 0) r = ncclSend(out, a.send_counts[i], a.type, q, a.comm, a.stream);
      if (r == ncclSuccess && a.recv_counts[i] != 0) r = ncclRecv(in, a.recv_counts[i], a.type, q, a.comm, a.stream);
    }
    return r;
  });
}

ncclResult_t gather(const NcclCallArgs& a) {
  return grouped([&a] {
    ncclResult_t r = ncclSuccess;
    if (a.rank == a.root)
      for (int q = 0; q < a.nranks && r == ncclSuccess; ++q)
        r = ncclRecv(block(a.recv, a.block_bytes, q), a.count, a.type, q, a.comm, a.stream);
    return r != ncclSuccess ? r : ncclSend(a.send, a.count, a.type, a.root, a.comm, a.stream);
  });
}

ncclResult_t scatter(const NcclCallArgs& a) {
  return grouped([&a] {
    ncclResult_t r = ncclSuccess;
    if (a.rank == a.root)
      for (int q = 0; q < a.nranks && r == ncclSuccess; ++q)
        r = ncclSend(block(a.send, a.block_bytes, q), a.count, a.type, q, a.comm, a.stream);
    return r != ncclSuccess ? r : ncclRecv(a.recv, a.count, a.type, a.root, a.comm, a.stream);
  });
}

// nccl-tests' sendrecv: to the next rank, from the previous one. Grouped, so
// that neither call waits for the other; with one rank both peers are itself.
ncclResult_t sendrecv(const NcclCallArgs& a) {
  return grouped([&a] {
    const ncclResult_t r = ncclSend(a.send, a.count, a.type, a.next, a.comm, a.stream);
    return r != ncclSuccess ? r : ncclRecv(a.recv, a.count, a.type, a.prev, a.comm, a.stream);
  });
}

// The call (null for reduce_scatterv, scan, exscan and barrier: NCCL has none) and the in-place layout, one row
// per collective in declaration order (checked at compile time).
struct NcclRow {
  NcclCall call;
  InPlaceBlocks in_place;
};
constexpr InPlaceBlocks kAtStart{.input_at_own_block = false, .result_at_own_block = false};
constexpr CollectiveRows<NcclRow> kRows{{
    {Collective::allreduce, {allreduce, kAtStart}},
    {Collective::bcast, {bcast, kAtStart}},
    {Collective::reduce, {reduce, kAtStart}},
    {Collective::allgather, {allgather, {.input_at_own_block = true, .result_at_own_block = false}}},
    {Collective::gather, {gather, kAtStart}},
    {Collective::scatter, {scatter, kAtStart}},
    {Collective::alltoall, {alltoall, kAtStart}},
    {Collective::alltoallv, {alltoallv, kAtStart}},
    {Collective::reduce_scatter, {reduce_scatter, {.input_at_own_block = false, .result_at_own_block = true}}},
    {Collective::reduce_scatterv, {nullptr, kAtStart}},
    {Collective::scan, {nullptr, kAtStart}},
    {Collective::exscan, {nullptr, kAtStart}},
    {Collective::sendrecv, {sendrecv, kAtStart}},
    {Collective::barrier, {nullptr, kAtStart}},
}};
static_assert(in_collective_order(kRows), "one NCCL row per collective, in declaration order");

}  // namespace

NcclCall nccl_call(Collective c) { return row_of(kRows, c).call; }

InPlaceBlocks nccl_in_place_blocks(Collective c) { return row_of(kRows, c).in_place; }

ncclDataType_t nccl_datatype(Dtype d) {
  switch (d) {
    case Dtype::int8: return ncclInt8;
    case Dtype::uint8: return ncclUint8;
    case Dtype::int32: return ncclInt32;
    case Dtype::int64: return ncclInt64;
    case Dtype::float16: return ncclFloat16;
    case Dtype::bfloat16: return ncclBfloat16;
    case Dtype::float32: return ncclFloat32;
    case Dtype::float64: return ncclFloat64;
    case Dtype::int16:
    case Dtype::none: break;
  }
  throw std::invalid_argument("NCCL has no " + std::string(name(d)) + " datatype");
}

ncclRedOp_t nccl_op(Op o) {
  switch (o) {
    case Op::sum: return ncclSum;
    case Op::prod: return ncclProd;
    case Op::min: return ncclMin;
    case Op::max: return ncclMax;
    case Op::none: break;
  }
  return ncclSum;  // collectives without a reduction ignore it
}

}  // namespace pico::nccl
