// SPDX-License-Identifier: BSD-3-Clause
// One thin adapter per collective from MpiCallArgs to the MPI library call:
// blocking, non-blocking and persistent.
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
int alltoallv(const MpiCallArgs& a) {
  return MPI_Alltoallv(a.send, a.send_counts, a.send_displs, a.type, a.recv, a.recv_counts, a.recv_displs, a.type,
                       a.comm);
}
int reduce_scatter(const MpiCallArgs& a) {
  return MPI_Reduce_scatter_block(a.send, a.recv, a.count, a.type, a.op, a.comm);
}
// recv_counts: MPI_Reduce_scatter's recvcounts, one per rank (the descriptor's rank_count).
int reduce_scatterv(const MpiCallArgs& a) {
  return MPI_Reduce_scatter(a.send, a.recv, a.recv_counts, a.type, a.op, a.comm);
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

// MPI_I<Coll>: the blocking call's arguments, then the request.
int iallreduce(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Iallreduce(a.send, a.recv, a.count, a.type, a.op, a.comm, &r.requests[0]);
}
int ibcast(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ibcast(a.recv, a.count, a.type, a.root, a.comm, &r.requests[0]);
}
int ireduce(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ireduce(a.send, a.recv, a.count, a.type, a.op, a.root, a.comm, &r.requests[0]);
}
int iallgather(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Iallgather(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, &r.requests[0]);
}
int igather(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Igather(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, &r.requests[0]);
}
int iscatter(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Iscatter(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, &r.requests[0]);
}
int ialltoall(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ialltoall(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, &r.requests[0]);
}
int ialltoallv(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ialltoallv(a.send, a.send_counts, a.send_displs, a.type, a.recv, a.recv_counts, a.recv_displs, a.type,
                        a.comm, &r.requests[0]);
}
int ireduce_scatter(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ireduce_scatter_block(a.send, a.recv, a.count, a.type, a.op, a.comm, &r.requests[0]);
}
int ireduce_scatterv(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ireduce_scatter(a.send, a.recv, a.recv_counts, a.type, a.op, a.comm, &r.requests[0]);
}
int iscan(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Iscan(a.send, a.recv, a.count, a.type, a.op, a.comm, &r.requests[0]);
}
int iexscan(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Iexscan(a.send, a.recv, a.count, a.type, a.op, a.comm, &r.requests[0]);
}
// The receive is posted first, as MPI_Sendrecv's ring needs nothing else to progress.
int isendrecv(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 2;
  const int rc = MPI_Irecv(a.recv, a.count, a.type, a.prev, 0, a.comm, &r.requests[0]);
  return rc != MPI_SUCCESS ? rc : MPI_Isend(a.send, a.count, a.type, a.next, 0, a.comm, &r.requests[1]);
}
int ibarrier(const MpiCallArgs& a, MpiRequests& r) {
  r.count = 1;
  return MPI_Ibarrier(a.comm, &r.requests[0]);
}

// sendrecv's persistent form is MPI-1's: a send and a receive request, started together.
int sendrecv_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 2;
  const int rc = MPI_Recv_init(a.recv, a.count, a.type, a.prev, 0, a.comm, &p.requests[0]);
  return rc != MPI_SUCCESS ? rc : MPI_Send_init(a.send, a.count, a.type, a.next, 0, a.comm, &p.requests[1]);
}

#ifdef PICO_PERSISTENT
// The same arguments as the blocking call, then an info object and the request.
int allreduce_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Allreduce)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int bcast_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Bcast)(a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int reduce_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Reduce)(a.send, a.recv, a.count, a.type, a.op, a.root, a.comm, MPI_INFO_NULL,
                                 &p.requests[0]);
}
int allgather_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Allgather)(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, MPI_INFO_NULL,
                                    &p.requests[0]);
}
int gather_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Gather)(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL,
                                 &p.requests[0]);
}
int scatter_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Scatter)(a.send, a.count, a.type, a.recv, a.count, a.type, a.root, a.comm, MPI_INFO_NULL,
                                  &p.requests[0]);
}
int alltoall_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Alltoall)(a.send, a.count, a.type, a.recv, a.count, a.type, a.comm, MPI_INFO_NULL,
                                   &p.requests[0]);
}
int alltoallv_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Alltoallv)(a.send, a.send_counts, a.send_displs, a.type, a.recv, a.recv_counts,
                                    a.recv_displs, a.type, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int reduce_scatter_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Reduce_scatter_block)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL,
                                               &p.requests[0]);
}
int reduce_scatterv_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Reduce_scatter)(a.send, a.recv, a.recv_counts, a.type, a.op, a.comm, MPI_INFO_NULL,
                                         &p.requests[0]);
}
int scan_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Scan)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int exscan_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Exscan)(a.send, a.recv, a.count, a.type, a.op, a.comm, MPI_INFO_NULL, &p.requests[0]);
}
int barrier_init(const MpiCallArgs& a, MpiRequests& p) {
  p.count = 1;
  return PICO_PERSISTENT(Barrier)(a.comm, MPI_INFO_NULL, &p.requests[0]);
}
#else
constexpr MpiStartCall allreduce_init = nullptr, bcast_init = nullptr, reduce_init = nullptr, allgather_init = nullptr,
                       gather_init = nullptr, scatter_init = nullptr, alltoall_init = nullptr, alltoallv_init = nullptr,
                       reduce_scatter_init = nullptr, reduce_scatterv_init = nullptr, scan_init = nullptr,
                       exscan_init = nullptr, barrier_init = nullptr;
#endif

struct MpiCalls {
  MpiCall blocking;
  MpiStartCall nonblocking;
  MpiStartCall persistent;
};

// One row per collective, in declaration order (checked at compile time).
constexpr CollectiveRows<MpiCalls> kCalls{{
    {Collective::allreduce, {allreduce, iallreduce, allreduce_init}},
    {Collective::bcast, {bcast, ibcast, bcast_init}},
    {Collective::reduce, {reduce, ireduce, reduce_init}},
    {Collective::allgather, {allgather, iallgather, allgather_init}},
    {Collective::gather, {gather, igather, gather_init}},
    {Collective::scatter, {scatter, iscatter, scatter_init}},
    {Collective::alltoall, {alltoall, ialltoall, alltoall_init}},
    {Collective::alltoallv, {alltoallv, ialltoallv, alltoallv_init}},
    {Collective::reduce_scatter, {reduce_scatter, ireduce_scatter, reduce_scatter_init}},
    {Collective::reduce_scatterv, {reduce_scatterv, ireduce_scatterv, reduce_scatterv_init}},
    {Collective::scan, {scan, iscan, scan_init}},
    {Collective::exscan, {exscan, iexscan, exscan_init}},
    {Collective::sendrecv, {sendrecv, isendrecv, sendrecv_init}},
    {Collective::barrier, {barrier, ibarrier, barrier_init}},
}};
static_assert(in_collective_order(kCalls), "one MPI call per collective, in declaration order");

}  // namespace

MpiCall library_call(Collective c) { return row_of(kCalls, c).blocking; }

MpiStartCall nonblocking_call(Collective c) { return row_of(kCalls, c).nonblocking; }

MpiStartCall persistent_init(Collective c) { return row_of(kCalls, c).persistent; }

const char* persistent_interface() {
#ifdef PICO_PERSISTENT
  return PICO_PERSISTENT_INTERFACE;
#else
  return "";
#endif
}

}  // namespace pico
