# SPDX-License-Identifier: BSD-3-Clause
"""Writes MPI traces in liballprof's exact format (spcl/atlahs goal_gen/hpc/liballprof, mpipclog.c), for the
trace replay tests: `MPI_Func:tstart:args:tend`, times in integer microseconds of an absolute clock, buffers and
request/status variables as decimal addresses, a datatype as `code,size,extent`, a communicator as
`handle,rank,size`, MPI_Init's start and MPI_Finalize's end as `-`, and liballprof's header comments.

A test builds a program rank by rank (Trace.rank(r).send(...), ...); each call advances that rank's clock.
Open MPI's conventions by default (handles are addresses, MPI_ANY_SOURCE -1, MPI_PROC_NULL -2, 8-byte
requests); mpi="mpich" gives MPICH's (MPI_COMM_WORLD 1140850688, MPI_ANY_SOURCE -2, MPI_PROC_NULL -1,
4-byte requests); mpi="fortran" Open MPI's Fortran binding's (handles are INTEGER indices, the world 0, 4-byte
requests)."""
import os

FLOAT = "8,4,4"
DOUBLE = "10,8,8"
BYTE = "13,1,1"
SIZES = {FLOAT: 4, DOUBLE: 8, BYTE: 1}
SUM = "3"


class Comm:
    """A communicator: its world ranks in comm-rank order and each member's handle."""

    def __init__(self, ranks, handles):
        self.ranks = list(ranks)
        self.handles = dict(handles)

    def field(self, world_rank):
        return f"{self.handles[world_rank]},{self.ranks.index(world_rank)},{len(self.ranks)}"

    def rank_of(self, world_rank):
        return self.ranks.index(world_rank)


class Rank:
    def __init__(self, trace, r):
        self.trace, self.r = trace, r
        self.t = 1_000_000_000 + 37 * r  # absolute Wtime in us, each rank's clock a little off
        self.lines = [f"# htor's PMPI Tracer 1.1 Output File", "# time: Wed Nov 25 12:00:00 2026",
                      f"# hostname: node{r // trace.ranks_per_host}", "# uname: Linux node 6.1.0 #1 SMP x86_64",
                      f"# Current timestamp: {self.t}", ""]
        self.next_address = 140737488000000 + 4096 * r
        self.call("MPI_Init", "140737488343500", "140737488344604", start="-", took=300)
        self.call("MPI_Comm_rank", trace.world.field(r), str(self.address()))

    def address(self, n=1):
        a = self.next_address
        self.next_address += 64 * n
        return a

    def call(self, name, *args, start=None, took=2):
        begin = self.t
        self.t += took
        self.lines.append(":".join([name, str(begin) if start is None else start, *args, str(self.t)]))
        self.t += 1
        return self

    def compute(self, us):
        self.t += us
        return self

    def comment(self, text):
        self.lines.append(f"# {text}")
        return self

    # point to point; peers are comm ranks (or the library's sentinels)
    def send(self, dest, tag, count, comm=None, dtype=DOUBLE, name="MPI_Send", took=5):
        comm = comm or self.trace.world
        return self.call(name, str(self.address()), str(count), dtype, str(dest), str(tag), comm.field(self.r), took=took)

    def recv(self, source, tag, count, comm=None, dtype=DOUBLE, took=5):
        comm = comm or self.trace.world
        return self.call("MPI_Recv", str(self.address()), str(count), dtype, str(source), str(tag), comm.field(self.r),
                         str(self.address()), took=took)

    def isend(self, dest, tag, count, request, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        self.call("MPI_Isend", str(self.address()), str(count), dtype, str(dest), str(tag), comm.field(self.r), str(request))
        return request

    def irecv(self, source, tag, count, request, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        self.call("MPI_Irecv", str(self.address()), str(count), dtype, str(source), str(tag), comm.field(self.r), str(request))
        return request

    def requests(self, n):
        """The address of an array of n requests (the library's request size apart)."""
        return self.address(n)

    def wait(self, request, took=3):
        return self.call("MPI_Wait", str(request), str(self.address()), took=took)

    def waitall(self, n, array, took=3):
        return self.call("MPI_Waitall", str(n), str(array), str(self.address()), took=took)

    def waitany(self, n, array):
        return self.call("MPI_Waitany", str(n), str(array), str(self.address()), str(self.address()))

    def sendrecv(self, dest, stag, source, rtag, count, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        return self.call("MPI_Sendrecv", str(self.address()), str(count), dtype, str(dest), str(stag),
                         str(self.address()), str(count), dtype, str(source), str(rtag), comm.field(self.r),
                         str(self.address()), took=6)

    def sendrecv_replace(self, dest, stag, source, rtag, count, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        return self.call("MPI_Sendrecv_replace", str(self.address()), str(count), dtype, str(dest), str(stag),
                         str(source), str(rtag), comm.field(self.r), str(self.address()), took=6)

    def send_init(self, dest, tag, count, request, comm=None, dtype=DOUBLE, recv=False):
        comm = comm or self.trace.world
        return self.call("MPI_Recv_init" if recv else "MPI_Send_init", str(self.address()), str(count), dtype, str(dest),
                         str(tag), comm.field(self.r), str(request))

    def startall(self, n, array):
        return self.call("MPI_Startall", str(n), str(array))

    # collectives
    def allreduce(self, count, comm=None, request=None, dtype=FLOAT):
        comm = comm or self.trace.world
        args = [str(self.address()), str(self.address()), str(count), dtype, SUM, comm.field(self.r)]
        if request is None:
            return self.call("MPI_Allreduce", *args, took=20)
        return self.call("MPI_Iallreduce", *args, str(request))

    def bcast(self, count, root, comm=None, request=None, dtype=BYTE):
        comm = comm or self.trace.world
        args = [str(self.address()), str(count), dtype, str(root), comm.field(self.r)]
        if request is None:
            return self.call("MPI_Bcast", *args, took=10)
        return self.call("MPI_Ibcast", *args, str(request))

    def barrier(self, comm=None, request=None):
        comm = comm or self.trace.world
        if request is None:
            return self.call("MPI_Barrier", comm.field(self.r), took=8)
        return self.call("MPI_Ibarrier", comm.field(self.r), str(request))

    def allgather(self, count, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        return self.call("MPI_Allgather", str(self.address()), str(count), dtype, str(self.address()), str(count), dtype,
                         comm.field(self.r), took=15)

    def scan(self, count, comm=None, dtype=FLOAT, exclusive=False):
        comm = comm or self.trace.world
        return self.call("MPI_Exscan" if exclusive else "MPI_Scan", str(self.address()), str(self.address()), str(count),
                         dtype, SUM, comm.field(self.r), took=15)

    # v-collectives: an array is printed as its address, then its values
    def array(self, values):
        return [str(self.address()), ",".join(str(v) for v in values)]

    def gatherv(self, count, counts, root, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        displs = [sum(counts[:k]) for k in range(len(counts))]
        return self.call("MPI_Gatherv", str(self.address()), str(count), dtype, str(self.address()), *self.array(counts),
                         *self.array(displs), dtype, str(root), comm.field(self.r), took=15)

    def scatterv(self, counts, count, root, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        displs = [sum(counts[:k]) for k in range(len(counts))]
        return self.call("MPI_Scatterv", str(self.address()), *self.array(counts), *self.array(displs), dtype,
                         str(self.address()), str(count), dtype, str(root), comm.field(self.r), took=15)

    def allgatherv(self, count, counts, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        displs = [sum(counts[:k]) for k in range(len(counts))]
        return self.call("MPI_Allgatherv", str(self.address()), str(count), dtype, str(self.address()),
                         *self.array(counts), *self.array(displs), dtype, comm.field(self.r), took=15)

    def alltoallv(self, send_counts, recv_counts, comm=None, dtype=DOUBLE):
        comm = comm or self.trace.world
        sd = [sum(send_counts[:k]) for k in range(len(send_counts))]
        rd = [sum(recv_counts[:k]) for k in range(len(recv_counts))]
        return self.call("MPI_Alltoallv", str(self.address()), *self.array(send_counts), *self.array(sd), dtype,
                         str(self.address()), *self.array(recv_counts), *self.array(rd), dtype, comm.field(self.r),
                         took=15)

    def comm_split(self, comm, color, key, variable=None):
        return self.call("MPI_Comm_split", comm.field(self.r), str(color), str(key), str(variable or self.address()),
                         took=12)

    def comm_split_type(self, comm, split_type, key):
        return self.call("MPI_Comm_split_type", comm.field(self.r), str(split_type), str(key), str(self.address()),
                         str(self.address()), took=12)

    def comm_dup(self, comm, variable=None):
        return self.call("MPI_Comm_dup", comm.field(self.r), str(variable or self.address()), took=12)

    def cart_create(self, comm, ndims, variable=None):
        """dims and periods are printed as addresses, as liballprof prints them; reorder 0."""
        return self.call("MPI_Cart_create", comm.field(self.r), str(ndims), str(self.address()), str(self.address()), "0",
                         str(variable or self.address()), took=12)

    def comm_free(self, variable):
        return self.call("MPI_Comm_free", str(variable), took=2)

    def cancel(self, request):
        return self.call("MPI_Cancel", str(request), took=1)

    def finalize(self):
        self.lines.append(f"MPI_Finalize:{self.t}:-")


class Trace:
    def __init__(self, ranks, mpi="openmpi", ranks_per_host=4):
        self.mpi = mpi
        self.ranks_per_host = ranks_per_host  # the header's `# hostname: nodeK`
        self.any_source, self.proc_null = (-2, -1) if mpi == "mpich" else (-1, -2)
        self.any_tag = -1
        world = {"mpich": lambda r: 1140850688, "fortran": lambda r: 0}.get(mpi, lambda r: 94853248035456 + 1024 * r)
        self.world = Comm(range(ranks), {r: world(r) for r in range(ranks)})
        self.request_bytes = 8 if mpi == "openmpi" else 4
        self.ranks = [Rank(self, r) for r in range(ranks)]
        self.next_handle = 94853300000000

    def rank(self, r):
        return self.ranks[r]

    def split(self, comm, colors, keys=None, variables=None, handles=None):
        """Every member of comm calls MPI_Comm_split (into variables[r] if given); returns {color: Comm} as MPI forms
        them, member r's handle handles[r] if given (a freed handle the library gives out again)."""
        keys = keys or {r: 0 for r in comm.ranks}
        for r in comm.ranks:
            self.ranks[r].comm_split(comm, colors[r], keys[r], (variables or {}).get(r))
        out = {}
        for color in sorted(set(c for c in colors.values() if c >= 0)):
            members = sorted((keys[r], comm.rank_of(r), r) for r in comm.ranks if colors[r] == color)
            made = {}
            for _, _, r in members:
                made[r] = (-1 - 1000 * color) & 0xFFFFFFFFFFFFFFFF if self.mpi == "mpich" else self.next_handle + 512 * r
            self.next_handle += 65536
            made.update({r: h for r, h in (handles or {}).items() if r in made})
            out[color] = Comm([r for _, _, r in members], made)
        return out

    def shared(self, comm, keys):
        """MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) over comm: {host: Comm}, members by key then parent rank."""
        for r in comm.ranks:
            self.ranks[r].comm_split_type(comm, 1 if self.mpi == "mpich" else 0, keys[r])
        out = {}
        for host in sorted(set(r // self.ranks_per_host for r in comm.ranks)):
            members = sorted((keys[r], comm.rank_of(r), r) for r in comm.ranks if r // self.ranks_per_host == host)
            out[host] = Comm([r for _, _, r in members], {r: self.next_handle + 512 * r for _, _, r in members})
            self.next_handle += 65536
        return out

    def dup(self, comm, variables=None):
        for r in comm.ranks:
            self.ranks[r].comm_dup(comm, (variables or {}).get(r))
        handles = {r: self.next_handle + 512 * r for r in comm.ranks}
        self.next_handle += 65536
        return Comm(comm.ranks, handles)

    def cart(self, comm, size, ndims=2):
        """MPI_Cart_create over comm, its grid `size` ranks (the parent's first, not reordered); the others get
        MPI_COMM_NULL."""
        for r in comm.ranks:
            self.ranks[r].cart_create(comm, ndims)
        members = comm.ranks[:size]
        handles = {r: self.next_handle + 512 * r for r in members}
        self.next_handle += 65536
        return Comm(members, handles)

    def write(self, directory, name="pmpi-trace-rank-{}.txt"):
        os.makedirs(directory, exist_ok=True)
        for r, rank in enumerate(self.ranks):
            if not rank.lines[-1].startswith("MPI_Finalize"):
                rank.finalize()
            with open(os.path.join(directory, name.format(r)), "w") as f:
                f.write("\n".join(rank.lines) + "\n")
        return directory

    def traced_s(self):
        """What pico calls the traced runtime: the slowest rank's last time minus its first."""
        spans = []
        for rank in self.ranks:
            times = [float(x) for line in rank.lines if line and not line.startswith("#")
                     for x in (line.split(":")[1], line.split(":")[-1]) if x != "-"]
            spans.append(max(times) - min(times))
        return max(spans) * 1e-6
