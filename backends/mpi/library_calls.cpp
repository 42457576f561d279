// SPDX-License-Identifier: BSD-3-Clause
// One thin adapter per collective from MpiCallArgs to the MPI library call,
// blocking and persistent.
#include "backends/mpi/library_calls.hpp"

// Persistent collectives are MPI 4.0's MPI_<Coll>_init; Open MPI 4.1 (MPI
// 3.1) has them as MPIX_<Coll>_init in its pcollreq extension, with the same
// arguments.
#if MPI_VERSION >= 4
#define PICO_PERSISTENT(name) MPI_##name##_init
#define PICO_PERSISTENT_INTERFACE "MPI 4.0 MPI_<Coll>_init"
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PICO_PERSISTENT(name) MPIX_##name##_init
#define PICO_PERSISTENT_INTERFACE "Open MPI's MPIX_<Coll>_init (pcollreq extension)"
#endif
#endif

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

// sendrecv's persistent form is MPI-1's: a send and a receive request, started together.
int sendrecv_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 2;
  const int rc = MPI_Recv_init(a.recv, a.count, a.type, a.prev, 0, a.comm, &p.requests[0]);
  return rc != MPI_SUCCESS ? rc : MPI_Send_init(a.send, a.count, a.type, a.next, 0, a.comm, &p.requests[1]);
}

#ifdef PICO_PERSISTENT
// The same arguments as the blocking call, then an info object and the request.
int allreduce_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Allreduce)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int bcast_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Bcast)(a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int reduce_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Reduce)(a.send, a.recv, a.count, a.type, a.op, a.root, a.comm, MPI_INFO_NULL,
                                 &p.requests[0]);
}
int allgather_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Allgather)(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, MPI_INFO_NULL,
                                    &p.requests[0]);
}
int gather_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Gather)(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL,
                                 &p.requests[0]);
}
int scatter_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Scatter)(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL,
                                  &p.requests[0]);
}
int alltoall_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Alltoall)(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, MPI_INFO_NULL,
                                   &p.requests[0]);
}
int reduce_scatter_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Reduce_scatter_block)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL,
                                               &p.requests[0]);
}
int scan_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Scan)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int exscan_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Exscan)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int barrier_init(const MpiCallArgs& a, PersistentRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Barrier)(a.comm, MPI_INFO_NULL, &p.requests[0]);
}
#else
constexpr MpiInitCall allreduce_init = nullptr, bcast_init = nullptr, reduce_init = nullptr,
                      allgather_init = nullptr, gather_init = nullptr, scatter_init = nullptr,
                      alltoall_init = nullptr, reduce_scatter_init = nullptr, scan_init = nullptr,
                      exscan_init = nullptr, barrier_init = nullptr;
#endif

struct MpiCalls {
  MpiCall blocking;
  MpiInitCall persistent;
};

// One row per collective, in declaration order (checked at compile time).
constexpr CollectiveRows<MpiCalls> kCalls{{
    {Collective::allreduce, {allreduce, allreduce_init}},
    {Collective::bcast, {bcast, bcast_init}},
    {Collective::reduce, {reduce, reduce_init}},
    {Collective::allgather, {allgather, allgather_init}},
    {Collective::gather, {gather, gather_init}},
    {Collective::scatter, {scatter, scatter_init}},
    {Collective::alltoall, {alltoall, alltoall_init}},
    {Collective::reduce_scatter, {reduce_scatter, reduce_scatter_init}},
    {Collective::scan, {scan, scan_init}},
    {Collective::exscan, {exscan, exscan_init}},
    {Collective::sendrecv, {sendrecv, sendrecv_init}},
    {Collective::barrier, {barrier, barrier_init}},
}};
static_assert(in_collective_order(kCalls), "one MPI call per collective, in declaration order");

}  // namespace

MpiCall library_call(Collective c) { return row_of(kCalls, c).blocking; }

MpiInitCall persistent_init(Collective c) { return row_of(kCalls, c).persistent; }

const char* persistent_interface() {
#ifdef PICO_PERSISTENT
  return PICO_PERSISTENT_INTERFACE;
#else
  return "";
#endif
}

}  // namespace pico
