// SPDX-License-Identifier: BSD-3-Clause
// One thin adapter per collective from MpiCallArgs to the MPI library call.
#include "backends/mpi/library_calls.hpp"

namespace pico {
namespace {

int allreduce(const MpiCallArgs& a) { return MPI_Allreduce(a.send, a.recv, a.count, a.type, a.op, a.comm); }
int bcast(const MpiCallArgs& a) { return MPI_Bcast(a.recv, a.count, a.type, a.root, a.comm); }
int reduce(const MpiCallArgs& a) { return MPI_Reduce(a.send, a.recv, a.count, a.type, a.op, a.root, a.comm); }
int allgather(const MpiCallArgs& a) {
  return MPI_Allgather(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm);
}
int gather(const MpiCallArgs& a) {
  return MPI_Gather(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm);
}
int scatter(const MpiCallArgs& a) {
  return MPI_Scatter(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm);
}
int alltoall(const MpiCallArgs& a) { return MPI_Alltoall(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm); }
int reduce_scatter(const MpiCallArgs& a) {
  return MPI_Reduce_scatter_block(a.send, a.recv, a.count, a.type, a.op, a.comm);
}
int scan(const MpiCallArgs& a) { return MPI_Scan(a.send, a.recv, a.count, a.type, a.op, a.comm); }
int exscan(const MpiCallArgs& a) { return MPI_Exscan(a.send, a.recv, a.count, a.type, a.op, a.comm); }
// Send to the next rank and receive from the previous one in one call, so the
// ring cannot deadlock; with one rank both are the rank itself.
int sendrecv(const MpiCallArgs& a) {
  return MPI_Sendrecv(a.send, a.count, a.type, a.next, 0, a.recv, a.count, a.type, a.prev, 0, a.comm,
                      MPI_STATUS_IGNORE);
}
int barrier(const MpiCallArgs& a) { return MPI_Barrier(a.comm); }

// One row per collective, in declaration order (checked at compile time).
constexpr CollectiveRows<MpiCall> kCalls{{
    {Collective::allreduce, allreduce},
    {Collective::bcast, bcast},
    {Collective::reduce, reduce},
    {Collective::allgather, allgather},
    {Collective::gather, gather},
    {Collective::scatter, scatter},
    {Collective::alltoall, alltoall},
    {Collective::reduce_scatter, reduce_scatter},
    {Collective::scan, scan},
    {Collective::exscan, exscan},
    {Collective::sendrecv, sendrecv},
    {Collective::barrier, barrier},
}};
static_assert(in_collective_order(kCalls), "one MPI call per collective, in declaration order");

}  // namespace

MpiCall library_call(Collective c) { return row_of(kCalls, c); }

}  // namespace pico
