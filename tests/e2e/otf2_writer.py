# SPDX-License-Identifier: BSD-3-Clause
"""Writes an MPI trace as Score-P would, in OTF2, with the OTF2 library's own Python writer (Debian's
python3-otf2): one location per rank in an MPI COMM_LOCATIONS group, communicators over COMM_GROUP groups of
ranks, every MPI call an Enter/Leave of its region (paradigm MPI) with its communication events inside, byte
counts of collectives by Score-P's convention (scorep_mpi_coll_bytes_*: allreduce sent = received = P x block,
bcast received = block, ...). Times in nanoseconds (timer resolution 1e9)."""
import otf2
from otf2.enums import CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole


class Otf2Trace:
    def __init__(self, path, ranks):
        self.ranks = ranks
        self.archive = otf2.writer.open(path, timer_resolution=10**9)
        self.trace = self.archive.__enter__()
        d = self.trace.definitions
        node = d.system_tree_node("node")
        self.locations = []
        for r in range(ranks):
            group = d.location_group(f"MPI Rank {r}", system_tree_parent=node,
                                     location_group_type=LocationGroupType.PROCESS)
            self.locations.append(d.location(f"Master thread {r}", group=group, type=LocationType.CPU_THREAD))
        self.members = {}
        self.all_locations = d.group("MPI_COMM_WORLD locations", group_type=GroupType.COMM_LOCATIONS,
                                     paradigm=Paradigm.MPI, members=self.locations)
        self.world = self.comm("MPI_COMM_WORLD", list(range(ranks)))
        self.regions = {}
        self.t = [1_000_000 + 1000 * r for r in range(ranks)]
        self.writers = [self.trace.event_writer_from_location(loc) for loc in self.locations]
        self.next_request = [1] * ranks
        for r in range(ranks):
            self.call(r, "MPI_Init", took=300_000)

    def comm(self, name, ranks):
        """A communicator over world ranks `ranks` (in comm-rank order)."""
        d = self.trace.definitions
        group = d.group(f"{name} group", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=ranks)
        c = d.comm(name, group=group)
        self.members[c] = list(ranks)
        return c

    def region(self, name):
        if name not in self.regions:
            self.regions[name] = self.trace.definitions.region(name, paradigm=Paradigm.MPI,
                                                               region_role=RegionRole.POINT2POINT)
        return self.regions[name]

    def compute(self, r, ns):
        self.t[r] += ns

    def call(self, r, name, events=(), took=2000):
        """An MPI call: Enter, its events (functions of the writer and a time), Leave."""
        w, region = self.writers[r], self.region(name)
        w.enter(self.t[r], region)
        for e in events:
            self.t[r] += 100
            e(w, self.t[r])
        self.t[r] += took
        w.leave(self.t[r], region)
        self.t[r] += 1000

    def request(self, r):
        self.next_request[r] += 1
        return self.next_request[r]

    # Calls; peers are ranks in `comm`.
    def send(self, r, dest, tag, nbytes, comm=None):
        comm = comm or self.world
        self.call(r, "MPI_Send", [lambda w, t: w.mpi_send(t, dest, comm, tag, nbytes)])

    def recv(self, r, source, tag, nbytes, comm=None):
        """The status's source and tag, as OTF2 records them (a wildcard receive's actual sender)."""
        comm = comm or self.world
        self.call(r, "MPI_Recv", [lambda w, t: w.mpi_recv(t, source, comm, tag, nbytes)])

    def isend(self, r, dest, tag, nbytes, comm=None):
        comm, req = comm or self.world, self.request(r)
        self.call(r, "MPI_Isend", [lambda w, t: w.mpi_isend(t, dest, comm, tag, nbytes, req)])
        return ("send", req)

    def irecv(self, r, source, tag, nbytes, comm=None):
        comm, req = comm or self.world, self.request(r)
        self.call(r, "MPI_Irecv", [lambda w, t: w.mpi_irecv_request(t, req)])
        return ("recv", req, source, tag, nbytes, comm)

    def waitall(self, r, requests):
        def completion(q):
            if q[0] == "send":
                return lambda w, t: w.mpi_isend_complete(t, q[1])
            if q[0] == "recv":
                return lambda w, t: w.mpi_irecv(t, q[2], q[5], q[3], q[4], q[1])
            return lambda w, t: w.non_blocking_collective_complete(t, *q[2:], q[1])
        self.call(r, "MPI_Waitall" if len(requests) > 1 else "MPI_Wait", [completion(q) for q in requests])

    def sendrecv(self, r, dest, source, tag, nbytes, comm=None):
        comm = comm or self.world
        self.call(r, "MPI_Sendrecv", [lambda w, t: w.mpi_send(t, dest, comm, tag, nbytes),
                                      lambda w, t: w.mpi_recv(t, source, comm, tag, nbytes)])

    def collective(self, r, name, op, comm, root, sent, received):
        root = 0xFFFFFFFF if root is None else root
        self.call(r, name, [lambda w, t: w.mpi_collective_begin(t),
                            lambda w, t: w.mpi_collective_end(t, op, comm, root, sent, received)], took=20_000)

    def allreduce(self, r, nbytes, comm=None):
        comm = comm or self.world
        p = len(self.members[comm])
        self.collective(r, "MPI_Allreduce", CollectiveOp.ALLREDUCE, comm, None, p * nbytes, p * nbytes)

    def scan(self, r, nbytes, comm=None, exclusive=False):
        # scorep_mpi_coll_bytes_scan: p - me blocks sent, me + 1 received; exscan (and scan in place) one fewer of each.
        comm = comm or self.world
        p, me = len(self.members[comm]), self.members[comm].index(r)
        drop = 1 if exclusive else 0
        self.collective(r, "MPI_Exscan" if exclusive else "MPI_Scan",
                        CollectiveOp.EXSCAN if exclusive else CollectiveOp.SCAN, comm, None,
                        (p - me - drop) * nbytes, (me + 1 - drop) * nbytes)

    def bcast(self, r, nbytes, root, comm=None):
        comm = comm or self.world
        p, me = len(self.members[comm]), self.members[comm].index(r)
        self.collective(r, "MPI_Bcast", CollectiveOp.BCAST, comm, root, p * nbytes if me == root else 0, nbytes)

    def iallreduce(self, r, nbytes, comm=None):
        comm, req = comm or self.world, self.request(r)
        p = len(self.members[comm])
        self.call(r, "MPI_Iallreduce", [lambda w, t: w.non_blocking_collective_request(t, req)])
        return ("collective", req, CollectiveOp.ALLREDUCE, comm, 0xFFFFFFFF, p * nbytes, p * nbytes)

    def local(self, r, name):
        self.call(r, name, took=500)

    def close(self):
        self.finalize_start = list(self.t)
        for r in range(self.ranks):
            self.call(r, "MPI_Finalize", took=1000)
        self.archive.__exit__(None, None, None)

    def traced_s(self):
        """What pico calls the traced runtime: the slowest rank's MPI_Init Leave to its MPI_Finalize Enter."""
        return max(f - (1_000_000 + 1000 * r + 300_000) for r, f in enumerate(self.finalize_start)) * 1e-9
