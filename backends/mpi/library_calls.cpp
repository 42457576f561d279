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
// Send to the next rank and receive from the previous one in one call, so the
// ring cannot deadlock; with one rank both are the rank itself.
int sendrecv(const MpiCallArgs& a) {
  return MPI_Sendrecv(a.send, a.count, a.type, a.next, 0, a.recv, a.count, a.type, a.prev, 0, a.comm,
                      MPI_STATUS_IGNORE);
}
int barrier(const MpiCallArgs& a) { return MPI_Barrier(a.comm); }

}  // namespace

// No default: -Wswitch names a collective without its library call.
MpiCall library_call(Collective c) {
  switch (c) {
    case Collective::allreduce: return allreduce;
    case Collective::bcast: return bcast;
    case Collective::reduce: return reduce;
    case Collective::allgather: return allgather;
    case Collective::gather: return gather;
    case Collective::scatter: return scatter;
    case Collective::alltoall: return alltoall;
    case Collective::reduce_scatter: return reduce_scatter;
    case Collective::sendrecv: return sendrecv;
    case Collective::barrier: return barrier;
  }
  return barrier;
}

}  // namespace pico
