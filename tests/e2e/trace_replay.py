#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pico replay on MPI traces in liballprof's exact format (tests/e2e/liballprof_writer.py): point to point,
wildcards, non-blocking calls and collectives, persistent requests, split communicators, MPICH's conventions,
2 to 16 ranks. Every GOAL pico writes must run to its end (tests/tools/goal_check.py: every label defined
before use, every receive matched, nothing left over); where LogGOPSim is at hand (PICO_LOGGOPSIM_DIR or
PATH) each is also simulated, with nothing unmatched, and pico's traced-vs-simulated line is checked.

Usage: trace_replay.py [NAME|scenarios|sample|all|--list]: one test (--list names them: each scenario_* function,
shared_sample, lammps_sample, refusals; one CTest each), every scenario, both samples, or everything; exit 77 (a
skip, saying why) where a test cannot run here: no OTF2 writer, or a sample in ../shared absent."""
import lzma
import os
import re
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import goal_check  # noqa: E402
from goal_sim import expect  # noqa: E402
from liballprof_writer import BYTE, Trace  # noqa: E402
from scenario_main import Skip, run_scenarios  # noqa: E402

PICO = os.environ.get("PICO", "build/pico")
SRC = os.environ.get("PICO_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
SHARED_SAMPLE = os.path.join(SRC, "..", "shared", "data", "liballprof-bcast")
MESSAGE_TAGS = 1 << 30
RESULTS = []  # (scenario, ranks, traced s, simulated s) for the table in docs/simulation.md


def loggopsim():
    d = os.environ.get("PICO_LOGGOPSIM_DIR")
    if d and os.path.exists(os.path.join(d, "LogGOPSim")):
        return d
    found = shutil.which("LogGOPSim")
    return os.path.dirname(found) if found and shutil.which("txt2bin") else None


def replay(*args):
    return subprocess.run([PICO, "replay", *args], capture_output=True, text=True, timeout=300)


def rank_blocks(goal_path):
    text = open(goal_path).read()
    return {int(r): body for r, body in re.findall(r"rank (\d+) \{\n(.*?)\n\}", text, re.S)}


def replayed(name, trace_dir, *extra, expect_traced=None):
    """Replays a trace; checks the GOAL runs to its end (and simulates it where LogGOPSim is); returns its path."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    out = os.path.join(os.path.dirname(trace_dir) if os.path.isdir(trace_dir) else os.path.dirname(os.path.dirname(trace_dir)),
                       f"{slug}.goal")
    proc = replay(trace_dir, "-o", out, *extra)
    expect(proc.returncode == 0, f"{name}: exit {proc.returncode}: {proc.stdout}{proc.stderr}")
    total, problems = goal_check.check(out)
    expect(not problems, f"{name}: the GOAL does not run to its end:\n" + "\n".join(problems[:10]))
    m = re.search(r"traced: ([0-9.]+) s", proc.stdout)
    expect(m, f"{name}: no traced time in {proc.stdout}")
    traced = float(m.group(1))
    if expect_traced is not None:
        expect(abs(traced - expect_traced) < 1e-6, f"{name}: traced {traced} s, expected {expect_traced} s")
    simulated = None
    tools = loggopsim()
    if tools:
        proc = replay(trace_dir, "-o", out, "--simulate", "--loggopsim", tools, *extra)
        expect(proc.returncode == 0, f"{name}: --simulate: {proc.stdout}{proc.stderr}")
        m = re.search(r"traced vs simulated: ([0-9.]+) s traced, ([0-9.]+) s simulated", proc.stdout)
        expect(m, f"{name}: no traced-vs-simulated line in {proc.stdout}")
        simulated = float(m.group(2))
        expect(simulated > 0, f"{name}: simulated {simulated}")
    RESULTS.append((name, len(rank_blocks(out)), traced, simulated, total))
    return out


def labels(body):
    """label -> (kind, size, peer, tag) and label -> set of labels it requires."""
    ops, deps = {}, {}
    for line in body.splitlines():
        m = re.match(r"(\w+): (send|recv|calc) (\d+)b?(?: (?:to|from) (\d+))?(?: tag (\d+))?", line)
        if m:
            ops[m.group(1)] = (m.group(2), int(m.group(3)), m.group(4) and int(m.group(4)), m.group(5) and int(m.group(5)))
            continue
        m = re.match(r"(\w+) requires (\w+)", line)
        if m:
            deps.setdefault(m.group(1), set()).add(m.group(2))
    return ops, deps


def closure(label, deps):
    seen, todo = set(), [label]
    while todo:
        for d in deps.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def scenario_ring(tmp):
    """8 ranks, blocking MPI_Send/MPI_Recv around a ring, three iterations."""
    t = Trace(8)
    for _ in range(3):
        for r in range(8):
            rk = t.rank(r).compute(100)
            if r % 2 == 0:
                rk.send((r + 1) % 8, 7, 1024).recv((r - 1) % 8, 7, 1024)
            else:
                rk.recv((r - 1) % 8, 7, 1024).send((r + 1) % 8, 7, 1024)
    d = t.write(os.path.join(tmp, "ring"))
    out = replayed("ring (Send/Recv, 8 ranks)", d, expect_traced=t.traced_s())
    sends = re.findall(r": send (\d+)b to (\d+) tag (\d+)", open(out).read())
    expect(len(sends) == 24 and all(b == "8192" and int(tag) >= MESSAGE_TAGS for b, _, tag in sends), sends[:4])
    # --compute-scale: rank 0's first gap is 100 us after MPI_Comm_rank (+1 us the writer leaves after every call).
    half = os.path.join(tmp, "ring-half.goal")
    proc = replay(d, "-o", half, "--compute-scale", "0.5")
    expect(proc.returncode == 0, proc.stderr)
    expect(": calc 101000000\n" in rank_blocks(out)[0] and ": calc 50500000\n" in rank_blocks(half)[0],
           "--compute-scale 0.5 halves the gaps")
    print("ring: ok")


def scenario_halo(tmp):
    """16 ranks on a 4x4 torus: MPI_Irecv/MPI_Isend to four neighbours, compute while they fly, MPI_Waitall."""
    t = Trace(16)
    for it in range(2):
        for r in range(16):
            rk = t.rank(r).compute(50)
            x, y = r % 4, r // 4
            nbrs = [y * 4 + (x + 1) % 4, y * 4 + (x - 1) % 4, ((y + 1) % 4) * 4 + x, ((y - 1) % 4) * 4 + x]
            array = rk.requests(8)
            for k, n in enumerate(nbrs):
                rk.irecv(n, 10 + (k ^ 1), 512, array + k * t.request_bytes)
            for k, n in enumerate(nbrs):
                rk.isend(n, 10 + k, 512, array + (4 + k) * t.request_bytes)
            rk.compute(700 + r).waitall(8, array)
        for r in range(16):
            t.rank(r).allreduce(1)
    d = t.write(os.path.join(tmp, "halo"))
    out = replayed("halo (Isend/Irecv/Waitall, 16 ranks)", d, expect_traced=t.traced_s())
    ops, deps = labels(rank_blocks(out)[5])
    # The compute between the starts and the Waitall requires none of the messages: they overlap it.
    compute = [label for label, op in ops.items() if op[0] == "calc" and op[1] == (700 + 5 + 1) * 10**6]
    expect(len(compute) == 2, f"rank 5's two overlapped computes: {compute}")
    for label in compute:
        inflight = [d for d in closure(label, deps) if ops[d][0] != "calc" and ops[d][3] >= MESSAGE_TAGS]
        first_iteration = label == compute[0]
        expect(not inflight if first_iteration else len(inflight) == 8,
               f"{label} requires messages {inflight}: non-blocking calls must overlap the compute after them")
    print("halo: ok")


def scenario_wildcards(tmp):
    """6 ranks: workers report to rank 0, which receives from MPI_ANY_SOURCE with MPI_ANY_TAG; the
    trace's clock orders the arrivals (rank 5 sends first), then rank 0 answers each."""
    t = Trace(6)
    for r in range(1, 6):
        t.rank(r).compute((6 - r) * 100).send(0, 100 + r, 64)
    t.rank(0).compute(700)
    for _ in range(5):
        t.rank(0).recv(t.any_source, t.any_tag, 64)
    for r in range(1, 6):
        t.rank(0).send(r, 0, 8)
        t.rank(r).recv(0, t.any_tag, 8)
    d = t.write(os.path.join(tmp, "wildcards"))
    out = replayed("wildcards (ANY_SOURCE, ANY_TAG, 6 ranks)", d)
    sources = [int(s) for s in re.findall(r": recv 512b from (\d+)", rank_blocks(out)[0])]
    expect(sources == [5, 4, 3, 2, 1], f"rank 0 receives in the order the sends started: {sources}")
    print("wildcards: ok")


def scenario_sendrecv(tmp):
    """5 ranks (not a power of two): MPI_Sendrecv one way, MPI_Sendrecv_replace the other, an allreduce."""
    t = Trace(5)
    for _ in range(2):
        for r in range(5):
            t.rank(r).compute(30).sendrecv((r + 1) % 5, 1, (r - 1) % 5, 1, 100)
            t.rank(r).sendrecv_replace((r - 1) % 5, 2, (r + 1) % 5, 2, 50)
        for r in range(5):
            t.rank(r).allreduce(1000)
    d = t.write(os.path.join(tmp, "sendrecv"))
    replayed("sendrecv (Sendrecv, Sendrecv_replace, 5 ranks)", d, "--algorithm", "allreduce=ring")
    print("sendrecv: ok")


def scenario_nbc(tmp):
    """4 ranks: MPI_Iallreduce, MPI_Ibcast and MPI_Ibarrier, each overlapping compute before its MPI_Wait."""
    t = Trace(4)
    for r in range(4):
        rk = t.rank(r)
        req = rk.requests(1)
        rk.allreduce(4096, request=req).compute(1000).wait(req)
        rk.bcast(100, 2, request=req).compute(200).wait(req)
        rk.barrier(request=req).compute(50).wait(req)
    d = t.write(os.path.join(tmp, "nbc"))
    out = replayed("non-blocking collectives (4 ranks)", d)
    ops, deps = labels(rank_blocks(out)[1])
    compute = [label for label, op in ops.items() if op[0] == "calc" and op[1] == 1001 * 10**6]
    expect(len(compute) == 1 and not any(ops[d][0] != "calc" for d in closure(compute[0], deps)),
           "the compute after MPI_Iallreduce requires none of its messages")
    later = [label for label, op in ops.items() if op[0] == "calc" and op[1] == 201 * 10**6]
    expect(len(later) == 1 and any(ops[d][0] == "send" for d in closure(later[0], deps)),
           "after MPI_Wait, the next compute requires the allreduce")
    print("nbc: ok")


def scenario_split(tmp):
    """12 ranks as a 3x4 grid: rows and columns by MPI_Comm_split (columns ordered by a negative key), an
    allreduce on rows, a bcast and point to point on columns (comm ranks mapped to world ranks), a dup."""
    t = Trace(12)
    rows = t.split(t.world, {r: r // 4 for r in range(12)}, {r: r % 4 for r in range(12)})
    cols = t.split(t.world, {r: r % 4 for r in range(12)}, {r: -(r // 4) for r in range(12)})
    for r in range(12):
        t.rank(r).compute(20).allreduce(256, comm=rows[r // 4])
    for r in range(12):
        col = cols[r % 4]
        t.rank(r).bcast(3000, 0, comm=col)
        k = col.rank_of(r)
        if k < 2:
            t.rank(r).send(k + 1, 3, 777, comm=col)
        if k > 0:
            t.rank(r).recv(k - 1, 3, 777, comm=col)
    dups = {row: t.dup(rows[row]) for row in rows}
    for r in range(12):
        t.rank(r).barrier(comm=dups[r // 4])
    d = t.write(os.path.join(tmp, "split"))
    out = replayed("split communicators (3x4 grid, 12 ranks)", d)
    blocks = rank_blocks(out)
    # Column 1 is world ranks 9, 5, 1 in comm-rank order: comm rank 0 (rank 9) sends to comm rank 1 (rank 5).
    expect(re.search(r": send 6216b to 5 tag", blocks[9]) and re.search(r": recv 6216b from 9 tag", blocks[5]), "column p2p")
    expect(re.search(r": send 6216b to 1 tag", blocks[5]) and not re.search(r"6216b", blocks[1].split("recv 6216b")[0] if "recv 6216b" in blocks[1] else "x"),
           "column p2p, second hop")
    expect(not re.search(r": (send|recv) 1024b (to|from) [^0-3]\b", blocks[0]), "row 0's allreduce stays in row 0")
    print("split: ok")


def scenario_persistent(tmp):
    """4 ranks: MPI_Send_init/MPI_Recv_init once, MPI_Startall and MPI_Waitall three times."""
    t = Trace(4)
    arrays = {}
    for r in range(4):
        rk = t.rank(r)
        arrays[r] = rk.requests(2)
        rk.send_init((r - 1) % 4, 5, 64, arrays[r], recv=True)
        rk.send_init((r + 1) % 4, 5, 64, arrays[r] + t.request_bytes)
    for _ in range(3):
        for r in range(4):
            t.rank(r).startall(2, arrays[r]).compute(40).waitall(2, arrays[r])
    d = t.write(os.path.join(tmp, "persistent"))
    out = replayed("persistent (Send_init/Recv_init/Startall, 4 ranks)", d)
    expect(len(re.findall(r": send 512b", open(out).read())) == 12, "12 persistent sends")
    print("persistent: ok")


def scenario_mpich(tmp):
    """3 ranks with MPICH's conventions: MPI_PROC_NULL (-1) at the chain's ends, MPI_ANY_SOURCE (-2), 4-byte requests."""
    t = Trace(3, mpi="mpich")
    for r in range(3):
        rk = t.rank(r)
        array = rk.requests(2)
        rk.irecv(t.any_source if r == 1 else (r - 1 if r > 0 else t.proc_null), 9, 32, array)
        rk.isend(r + 1 if r < 2 else t.proc_null, 9, 32, array + t.request_bytes)
        rk.compute(25).waitall(2, array)
    d = t.write(os.path.join(tmp, "mpich"))
    out = replayed("MPICH conventions (PROC_NULL, ANY_SOURCE, 3 ranks)", d)
    expect(len(re.findall(r": send 256b", open(out).read())) == 2, "MPI_PROC_NULL sends are not replayed")
    proc = replay(d, "-o", out, "--trace-mpi", "openmpi")
    expect(proc.returncode == 2 and "outside the communicator" in proc.stderr, f"Open MPI's reading: {proc.stderr}")
    print("mpich: ok")


def scenario_sample_format(tmp):
    """The published sample's shape: `# collprof 0.9` comments, `# Init clockdiff`, times with six decimals, files
    named trace_bcast-N.dat, 4 ranks, 5 MPI_Bcast; read from the directory and from rank 0's file."""
    t = Trace(4)
    for r in range(4):
        t.rank(r).lines[:6] = ["# collprof 0.9 output file", "# Sun Oct 26 12:33:51 2008", "# host: brunhilde",
                               "# Init clockdiff: 0.000000", ""]
        for _ in range(5):
            t.rank(r).compute(1).bcast(12, 0)
        t.rank(r).comment("Finalize clockdiff: 0.000000")
    for rank in t.ranks:
        rank.lines = [re.sub(r"^(MPI_\w+):(\d+):(.*):(\d+)$", r"\1:\2.000000:\3:\4.000000", x) for x in rank.lines]
    d = t.write(os.path.join(tmp, "sample"), "trace_bcast-{}.dat")
    replayed("sample format (5 Bcast, 4 ranks)", d)
    replayed("sample format, rank 0's file", os.path.join(d, "trace_bcast-0.dat"))
    print("sample format: ok")


def otf2_writer():
    """The OTF2 writer class; without it, the test is skipped."""
    try:
        from otf2_writer import Otf2Trace
        return Otf2Trace
    except ImportError as e:
        raise Skip(f"no OTF2 Python writer: {e}; scripts/setup.sh installs python3-otf2") from e


def scenario_otf2(tmp):
    """6 ranks traced as Score-P writes OTF2 (tests/e2e/otf2_writer.py, the OTF2 library's writer): collectives on
    the world and on row communicators the archive defines, receives whose recorded sender (the status) orders
    them against the send times, MPI_Sendrecv, MPI_Isend/MPI_Irecv/MPI_Waitall, MPI_Iallreduce/MPI_Wait."""
    Otf2Trace = otf2_writer()
    path = os.path.join(tmp, "otf2")
    t = Otf2Trace(path, 6)
    rows = [t.comm("row0", [0, 1, 2]), t.comm("row1", [3, 4, 5])]
    for r in range(6):
        t.local(r, "MPI_Comm_rank")
        t.compute(r, 40_000)
        t.allreduce(r, 4096)
        t.local(r, "MPI_Comm_split")
    for r in range(6):
        t.bcast(r, 3000, 1, rows[r // 3])
    for r in range(1, 6):  # rank 5 sends first, but rank 0's statuses say it took rank 1's first
        t.compute(r, (6 - r) * 100_000)
        t.send(r, 0, 100 + r, 64)
    t.compute(0, 800_000)
    for src in range(1, 6):
        t.recv(0, src, 100 + src, 64)
    for r in range(6):
        t.sendrecv(r, (r + 1) % 6, (r - 1) % 6, 7, 2048)
    for r in range(6):
        reqs = [t.irecv(r, (r - 1) % 6, 8, 512), t.isend(r, (r + 1) % 6, 8, 512), t.iallreduce(r, 64)]
        t.compute(r, 300_000 + 1000 * r)
        t.waitall(r, reqs)
    t.close()
    anchor = os.path.join(path, "traces.otf2")
    probe = replay(anchor, "--unknown", "list")
    if "built without the OTF2 library" in probe.stderr:
        raise Skip("pico was built without libotf2-trace-dev")
    out = replayed("OTF2 (Score-P's events, 6 ranks)", anchor, expect_traced=t.traced_s())
    blocks = rank_blocks(out)
    sources = [int(s) for s, tag in re.findall(r": recv 64b from (\d+) tag (\d+)", blocks[0]) if int(tag) >= MESSAGE_TAGS]
    expect(sources == [1, 2, 3, 4, 5], f"rank 0 receives as its statuses say: {sources}")
    expect(re.search(r": send 3000b to (3|5) tag", blocks[4]) and not re.search(r"3000b (to|from) [0-2]\b", blocks[4]),
           "row 1's bcast from its comm rank 1 (world rank 4) stays in row 1")
    # A call pico does not replay (an MPI region with no event it reads) is refused, listed or skipped.
    put = Otf2Trace(os.path.join(tmp, "otf2-put"), 2)
    put.local(0, "MPI_Put")
    for r in range(2):
        put.allreduce(r, 8)
    put.close()
    put_anchor = os.path.join(tmp, "otf2-put", "traces.otf2")
    proc = replay(put_anchor, "-o", os.path.join(tmp, "put.goal"))
    expect(proc.returncode == 2 and "MPI_Put (1)" in proc.stderr, f"OTF2 MPI_Put: {proc.stderr}")
    expect(replay(put_anchor, "-o", os.path.join(tmp, "put.goal"), "--unknown", "skip").returncode == 0, "OTF2 --unknown skip")
    ops, deps = labels(blocks[2])
    compute = [label for label, op in ops.items() if op[0] == "calc" and op[1] == 303 * 10**6]  # 302 us of compute + the 1 us after MPI_Iallreduce
    expect(len(compute) == 1 and not any(ops[d][0] != "calc" and ops[d][3] >= MESSAGE_TAGS
                                         for d in deps.get(compute[0], ())), "the Waitall's operations overlap the compute")
    # Issue 53, finding 8: OTF2 opens the member files itself: a FIFO among them hung the replay, and a corrupt
    # local definition file was skipped (exit 0) with OTF2's own error text on stderr.
    def fifo_at(d, member):
        os.remove(os.path.join(d, member))
        os.mkfifo(os.path.join(d, member))

    for name, spoil, message in (
            ("fifo-evt", lambda d: fifo_at(d, "traces/1.evt"), "1.evt: a member of the OTF2 archive is a FIFO"),
            ("fifo-def", lambda d: fifo_at(d, "traces.def"), "traces.def: a member of the OTF2 archive is a FIFO"),
            ("corrupt-def", lambda d: open(os.path.join(d, "traces", "0.def"), "w").write("garbage, not OTF2"),
             "OTF2 local definitions of rank 0")):
        spoiled = os.path.join(tmp, "otf2-" + name)
        shutil.copytree(os.path.join(tmp, "otf2-put"), spoiled)
        spoil(spoiled)
        proc = replay(os.path.join(spoiled, "traces.otf2"), "-o", os.path.join(tmp, name + ".goal"), "--unknown", "skip")
        expect(proc.returncode == 2 and message in proc.stderr and "[OTF2]" not in proc.stderr,
               f"OTF2 {name}: exit {proc.returncode}\n{proc.stderr}")
    print("otf2: ok")


def scenario_scan(tmp):
    """6 ranks (not a power of two): MPI_Scan and MPI_Exscan of 1000 floats, by the default (recursive doubling)
    and by --algorithm linear."""
    t = Trace(6)
    for r in range(6):
        t.rank(r).compute(40).scan(1000).scan(1000, exclusive=True)
    d = t.write(os.path.join(tmp, "scan"))
    doubling = rank_blocks(replayed("scan and exscan (6 ranks)", d, expect_traced=t.traced_s()))
    # Recursive doubling: rank 5 has partners 4 (xor 1) and 1 (xor 4), not 7 (xor 2), in each of the two calls.
    expect(sorted(re.findall(r": send 4000b to (\d+)", doubling[5])) == ["1", "1", "4", "4"], doubling[5])
    linear = rank_blocks(replayed("scan and exscan, linear (6 ranks)", d, "--algorithm", "scan=linear",
                                  "--algorithm", "exscan=linear"))
    expect(re.findall(r": send 4000b to (\d+)", linear[2]) == ["3", "3"] and ": send " not in linear[5],
           "linear chains: rank 2 sends to 3 in both calls, the last rank sends nothing")
    print("scan: ok")


def scenario_scan_otf2(tmp):
    """scenario_scan's calls as Score-P writes them to OTF2: the same partners and the same 4000 B blocks."""
    Otf2Trace = otf2_writer()
    path = os.path.join(tmp, "otf2-scan")
    o = Otf2Trace(path, 6)
    for r in range(6):
        o.scan(r, 4000)
        o.scan(r, 4000, exclusive=True)
    o.close()
    out = os.path.join(tmp, "otf2-scan.goal")
    proc = replay(os.path.join(path, "traces.otf2"), "-o", out)
    expect(proc.returncode == 0, f"OTF2 scan: {proc.stdout}{proc.stderr}")
    otf2 = rank_blocks(out)
    expect(sorted(re.findall(r": send 4000b to (\d+)", otf2[5])) == ["1", "1", "4", "4"],
           f"OTF2: Score-P's byte counts give back the 4000 B block: {otf2[5]}")
    print("scan, OTF2: ok")


def scenario_comm_lifetimes(tmp):
    """4 ranks: communicators made and freed as HPL and PTRANS make their grids (issue 49, 1 and 2). A split into
    pairs {0,1} {2,3} is made and freed unused; another into {0,1} {2,3} is used and freed, and its handles come
    back for a split into {0,2} {1,3}; point to point on the last must reach the last's members."""
    t = Trace(4)
    var = {r: 140737488100000 + 4096 * r for r in range(4)}
    t.split(t.world, {r: r // 2 for r in range(4)}, variables=var)
    for r in range(4):
        t.rank(r).comm_free(var[r])  # made and freed, never used
    pairs = t.split(t.world, {r: r // 2 for r in range(4)}, variables=var)
    for r in range(4):
        t.rank(r).allreduce(64, comm=pairs[r // 2]).comm_free(var[r])
    handles = {r: pairs[r // 2].handles[r] for r in range(4)}
    cross = t.split(t.world, {r: r % 2 for r in range(4)}, variables=var, handles=handles)
    for r in range(4):
        comm = cross[r % 2]
        if comm.rank_of(r) == 0:
            t.rank(r).send(1, 9, 300, comm=comm)
        else:
            t.rank(r).recv(0, 9, 300, comm=comm)
        t.rank(r).comm_free(var[r])
    d = t.write(os.path.join(tmp, "lifetimes"))
    out = replayed("communicators freed and their handles reused", d)
    blocks = rank_blocks(out)
    expect(re.search(r": send 2400b to 2 tag", blocks[0]) and re.search(r": recv 2400b from 0 tag", blocks[2]),
           "the last split's rank 0 -> 1 is world 0 -> 2")
    expect(re.search(r": send 2400b to 3 tag", blocks[1]), "and world 1 -> 3")
    print("communicator lifetimes: ok")


def scenario_cartesian(tmp):
    """6 ranks, a 2x2 MPI_Cart_create (ranks 4 and 5 get MPI_COMM_NULL): an allreduce and point to point on the
    grid, whose ranks are the world's first four in order (no library pico knows reorders)."""
    t = Trace(6)
    grid = t.cart(t.world, 4)
    for r in range(4):
        t.rank(r).allreduce(128, comm=grid)
        if r == 3:
            t.rank(r).send(0, 4, 50, comm=grid)
        if r == 0:
            t.rank(r).recv(3, 4, 50, comm=grid)
    for r in range(6):
        t.rank(r).barrier()
    d = t.write(os.path.join(tmp, "cartesian"))
    out = replayed("MPI_Cart_create (2x2 of 6 ranks)", d)
    blocks = rank_blocks(out)
    expect(re.search(r": recv 400b from 3 tag", blocks[0]), "grid rank 3 is world 3")
    expect(not re.search(r": (send|recv) 512b", blocks[4] + blocks[5]), "ranks 4 and 5 are not in the grid's allreduce")
    print("cartesian: ok")


def scenario_cancel(tmp):
    """2 ranks: rank 0 posts a wildcard MPI_Irecv, cancels it unmatched (HPCC RandomAccess's end), then receives
    rank 1's two messages; the cancelled receive must take neither."""
    t = Trace(2)
    a, b = t.rank(0).requests(1), t.rank(0).requests(1)
    t.rank(0).irecv(t.any_source, 5, 10, a)
    t.rank(0).wait(a)
    t.rank(0).irecv(t.any_source, 5, 10, b)
    t.rank(0).compute(50).cancel(b).wait(b)
    t.rank(0).recv(1, 5, 10)
    for _ in range(2):
        t.rank(1).send(0, 5, 10)
    d = t.write(os.path.join(tmp, "cancel"))
    out = replayed("MPI_Cancel of an unmatched receive", d)
    blocks = rank_blocks(out)
    expect(len(re.findall(r": recv 80b from 1", blocks[0])) == 2, f"two receives replayed, not three: {blocks[0]}")
    proc = replay(d, "-o", out)
    expect("1 receive cancelled unmatched" in proc.stdout, proc.stdout)
    print("cancel: ok")


def scenario_request_copies(tmp):
    """2 ranks: rank 1 starts each MPI_Irecv in one variable and waits on copies of it (C++ frameworks do), so
    liballprof prints addresses no request was started at; the waits complete the copied requests."""
    t = Trace(2)
    tmp_var = t.rank(1).requests(1)
    copies = t.rank(1).requests(2)
    for it in range(2):
        t.rank(0).send(1, it, 1000).send(1, it, 1000)
        t.rank(1).irecv(0, it, 1000, tmp_var)
        t.rank(1).irecv(0, it, 1000, tmp_var)
        t.rank(1).waitall(2, copies).compute(1000)
    d = t.write(os.path.join(tmp, "copies"))
    out = replayed("waits on copies of requests", d)
    ops, deps = labels(rank_blocks(out)[1])
    recvs = [label for label, op in ops.items() if op[0] == "recv"]
    after = [label for label, op in ops.items() if op[0] == "calc" and op[1] == 1001 * 10**6]
    expect(len(after) == 2, f"a compute of 1001 us after each waitall: {after}")
    for c in after:
        before = closure(c, deps)
        expect(sum(1 for x in recvs if x in before) >= 2, "the compute after a waitall requires its two receives")
    proc = replay(d, "-o", out)
    expect("4 waits through a copy of the request" in proc.stdout, proc.stdout)
    print("request copies: ok")


def scenario_fortran(tmp):
    """2 ranks through Open MPI's Fortran binding: handles are INTEGERs (the world is 0), so a request array
    steps 4 bytes; MPI_Waitall of reqs(1:2) must complete both the MPI_Irecv and the MPI_Isend (issue 49, 6)."""
    t = Trace(2, mpi="fortran")
    for r in range(2):
        reqs = t.rank(r).requests(1)
        t.rank(r).irecv(1 - r, 6, 100, reqs)
        t.rank(r).isend(1 - r, 6, 100, reqs + 4)
        t.rank(r).waitall(2, reqs).compute(1000)
    d = t.write(os.path.join(tmp, "fortran"))
    out = replayed("Fortran binding (4-byte requests)", d)
    ops, deps = labels(rank_blocks(out)[0])
    after = [label for label, op in ops.items() if op[0] == "calc" and op[1] == 1001 * 10**6]
    expect(after and {ops[x][0] for x in closure(after[0], deps)} >= {"send", "recv"},
           "the compute after MPI_Waitall requires both the send and the receive")
    print("fortran: ok")


def scenario_vcollectives(tmp):
    """3 ranks: MPI_Gatherv to root 1, MPI_Scatterv from root 0, MPI_Allgatherv and MPI_Alltoallv with uneven counts
    as liballprof prints them (address:values), replayed as the messages of the linear algorithms (issue 49, 7)."""
    t = Trace(3)
    gathered = [1, 0, 3]  # rank 1 (the root) keeps its own; rank 0 sends 1 double, rank 2 sends 3
    for r in range(3):
        t.rank(r).gatherv(gathered[r], gathered, 1)
    scattered = [5, 6, 7]
    for r in range(3):
        t.rank(r).scatterv(scattered, scattered[r], 0)
    for r in range(3):
        t.rank(r).allgatherv(10 + r, [10, 11, 12])
    # rank i sends 100*i + j doubles to rank j
    for r in range(3):
        t.rank(r).alltoallv([100 * r + j for j in range(3)], [100 * j + r for j in range(3)])
    d = t.write(os.path.join(tmp, "vcollectives"))
    out = replayed("v-collectives (Gatherv, Scatterv, Allgatherv, Alltoallv)", d)
    blocks = rank_blocks(out)

    def sends(r):
        return sorted((int(b), int(p)) for b, p in re.findall(r": send (\d+)b to (\d+) tag", blocks[r]))
    expect(sends(0) == sorted([(8, 1), (48, 1), (56, 2), (80, 1), (80, 2), (8, 1), (16, 2)]), f"rank 0: {sends(0)}")
    expect(sends(1) == sorted([(88, 0), (88, 2), (800, 0), (816, 2)]), f"rank 1: {sends(1)}")
    expect(sends(2) == sorted([(24, 1), (96, 0), (96, 1), (1600, 0), (1608, 1)]), f"rank 2: {sends(2)}")
    print("v-collectives: ok")


def scenario_split_type(tmp):
    """6 ranks on 3 hosts (the header's `# hostname:`): MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) with keys that
    reverse each host's ranks; point to point from place 0 to place 1 of each node communicator."""
    t = Trace(6, ranks_per_host=2)
    nodes = t.shared(t.world, {r: -r for r in range(6)})
    for r in range(6):
        node = nodes[r // 2]
        if node.rank_of(r) == 0:
            t.rank(r).send(1, 3, 40, comm=node)
        else:
            t.rank(r).recv(0, 3, 40, comm=node)
    d = t.write(os.path.join(tmp, "split_type"))
    out = replayed("MPI_Comm_split_type (3 hosts of 2 ranks)", d)
    blocks = rank_blocks(out)
    for host in range(3):
        hi, lo = 2 * host + 1, 2 * host  # key -r puts the host's higher rank first
        expect(re.search(rf": send 320b to {lo} tag", blocks[hi]), f"host {host}: rank {hi} sends to {lo}")
    print("split_type: ok")


def test_shared_sample(tmp):
    """The real liballprof sample from spcl/atlahs, unmodified (skipped when ../shared is absent)."""
    if not os.path.isdir(SHARED_SAMPLE):
        raise Skip(f"{SHARED_SAMPLE} is absent")
    out = replayed("liballprof-bcast (spcl/atlahs sample)", SHARED_SAMPLE, expect_traced=12e-6)
    blocks = rank_blocks(out)
    expect(len(blocks) == 4, "four ranks")
    expect(len(re.findall(r": send 12b", open(out).read())) == 15, "5 binomial bcasts of 12 B on 4 ranks: 15 sends")
    print("sample: ok")


def test_lammps_sample(tmp):
    """The real LAMMPS trace in ../shared (Debian's LAMMPS, in.lj, 2 ranks, liballprof), unmodified: replayed with
    --unknown refuse (its MPI_Cart_create and MPI_Comm_free included) and its calls counted (skipped when absent)."""
    sample = os.path.join(SRC, "..", "shared", "data", "liballprof-lammps-np2")
    if not os.path.isdir(sample):
        raise Skip(f"{sample} is absent")
    d = os.path.join(tmp, "lammps-np2")
    os.makedirs(d)
    for r in range(2):
        with lzma.open(os.path.join(sample, f"pmpi-trace-rank-{r}.txt.xz")) as f, \
                open(os.path.join(d, f"pmpi-trace-rank-{r}.txt"), "wb") as out:
            shutil.copyfileobj(f, out)
    out = replayed("LAMMPS in.lj (Debian, liballprof)", d, "--unknown", "refuse", expect_traced=6.221497)
    proc = replay(d, "-o", out)
    # Per rank 4,055 MPI_Send and 153 MPI_Sendrecv (none to MPI_PROC_NULL): 8,416 messages; collectives on the
    # world: 70 Allreduce, 62 Bcast, 5 Barrier, 3 Reduce, 1 Scan = 141.
    expect("8557 communication calls" in proc.stdout, proc.stdout)
    expect("requests:" not in proc.stdout, f"every wait names its request: {proc.stdout}")
    text = open(out).read()
    blocks = rank_blocks(out)
    expect(len(blocks) == 2, "two ranks")
    # 4,055 MPI_Send of each rank plus its 153 MPI_Sendrecv's sends go to the other rank, tagged as messages.
    for r in range(2):
        sends = [int(t) for t in re.findall(r": send \d+b to \d+ tag (\d+)", blocks[r])]
        expect(sum(1 for t in sends if t >= MESSAGE_TAGS) == 4055 + 153, f"rank {r}: {sum(1 for t in sends if t >= MESSAGE_TAGS)} messages")
    expect(len(text) > 10**6, "a GOAL of over 1 MB")
    print("lammps: ok")


def test_refusals(tmp):
    base = Trace(2)
    base.rank(0).send(1, 1, 10)
    base.rank(1).recv(0, 1, 10)
    good = base.write(os.path.join(tmp, "good"))

    def variant(name, edit, files=None):
        d = os.path.join(tmp, name)
        os.makedirs(d, exist_ok=True)
        for r in range(2):
            lines = open(os.path.join(good, f"pmpi-trace-rank-{r}.txt")).read().splitlines(True)
            open(os.path.join(d, (files or "pmpi-trace-rank-{}.txt").format(r)), "w").writelines(edit(r, lines))
        return d

    def edit_line(prefix, old, new, rank=None):
        return lambda r, lines: [x.replace(old, new) if x.startswith(prefix) and (rank is None or r == rank) else x
                                 for x in lines]

    world0 = base.world.field(0)
    out = os.path.join(tmp, "refused.goal")
    cases = [
        (variant("comm", edit_line("MPI_Send", world0, world0.rsplit(",", 1)[0], 0)), "is not handle,rank,size"),
        (variant("commrank", edit_line("MPI_Send", world0, world0.replace(",0,2", ",2,2"), 0)),
         "rank in the communicator 2 is outside [0, 1]"),
        (variant("arity", edit_line("MPI_Send", f":1:1:{world0}", f":1:{world0}", 0)), "has 5 arguments, liballprof writes 6"),
        (variant("nosend", lambda r, l: [x for x in l if not x.startswith("MPI_Send")]), "no send matches this receive"),
        (variant("norecv", lambda r, l: [x for x in l if not x.startswith("MPI_Recv")]), "no receive matches this send"),
        (variant("tag", edit_line("MPI_Recv", ":1:" + base.world.field(1), ":2:" + base.world.field(1))),
         "no send matches this receive (from rank 0, tag 2)"),
        (variant("unmade", edit_line("MPI_Send", world0, "5,0,3", 0)), "was made by no call pico replays"),
        (variant("time", edit_line("MPI_Send", ":1000000", ":x1000000", 0)), "is not a time in microseconds"),
        (variant("gap", lambda r, l: [re.sub(r"^MPI_Finalize:(\d+)", lambda m: f"MPI_Finalize:{int(m.group(1)) + 10**17}", x)
                                      for x in l]), "a compute gap of"),
        (variant("root", lambda r, l: l[:-1] + [f"MPI_Bcast:1000009000:1:4:13,1,1:4294967296:{base.world.field(r)}:1000009010\n"]
                 + l[-1:]), "root 4294967296 is outside [0, 1]"),
        (variant("vcounts", lambda r, l: l[:-1] + [f"MPI_Gatherv:1000009000:1:1:10,8,8:2:3:1:4:0:10,8,8:0:"
                                                    f"{base.world.field(r)}:1000009010\n"] + l[-1:]),
         "'1' holds 1 count for a communicator of 2 ranks"),
        (variant("unknown", lambda r, l: l[:-1] + ["MPI_Put:1000009000:1:4:13,1,1:1:0:4:13,1,1:77:1000009010\n"] + l[-1:]),
         "MPI_Put (2)"),
    ]
    for d, message in cases:
        proc = replay(d, "-o", out)
        expect(proc.returncode == 2 and message in proc.stderr, f"{os.path.basename(d)}: exit {proc.returncode}: {proc.stderr}")
    # A function pico does not replay is refused at its first call (issue 49: a count alone named no place).
    cart_sub = variant("cartsub", lambda r, l: l[:-1] + [f"MPI_Cart_sub:1000009000:{base.world.field(r)}:140737488000:"
                                                          f"140737488064:1000009010\n"] + l[-1:])
    proc = replay(cart_sub, "-o", out)
    expect(proc.returncode == 2 and re.search(r"pmpi-trace-rank-0\.txt:\d+: .*MPI_Cart_sub \(2\)", proc.stderr), proc.stderr)
    # A wait on a variable no request was started at, with none a copy could be: refused, or with
    # --unmatched-waits null a wait on MPI_REQUEST_NULL, counted either way (issue 49, 6).
    def wait_before_finalize(r, lines):
        end = int(lines[-1].split(":")[1])  # MPI_Finalize's start
        if r == 0:
            return lines
        return lines[:-1] + [f"MPI_Wait:{end}:140737488999:140737488998:{end + 2}\n", f"MPI_Finalize:{end + 3}:-\n"]
    lost = variant("lostwait", wait_before_finalize)
    proc = replay(lost, "-o", out)
    expect(proc.returncode == 2 and re.search(r"pmpi-trace-rank-1\.txt:\d+: a wait completes nothing", proc.stderr),
           f"lost wait: exit {proc.returncode}: {proc.stderr}")
    proc = replay(lost, "-o", out, "--unmatched-waits", "null")
    expect(proc.returncode == 0 and "1 wait completing nothing (MPI_REQUEST_NULL)" in proc.stdout, proc.stdout + proc.stderr)
    # A file and line and column are named for a malformed field.
    proc = replay(cases[0][0], "-o", out)
    expect(re.search(r"pmpi-trace-rank-0\.txt:\d+:\d+: ", proc.stderr), proc.stderr)
    proc = replay(cases[-1][0], "--unknown", "list")
    expect(proc.returncode == 0 and "1 MPI function pico does not replay:" in proc.stdout and "MPI_Put (2 calls)" in proc.stdout,
           proc.stdout)
    proc = replay(good, "--unknown", "list")
    expect(proc.returncode == 0 and "every MPI function in the traces is one pico replays" in proc.stdout, proc.stdout)
    proc = replay(cases[-1][0], "-o", out, "--unknown", "skip")
    expect(proc.returncode == 0, proc.stderr)
    # Two files for one rank; a FIFO as a rank file (never opened for reading: it would block).
    dup = variant("dup", lambda r, l: l)
    shutil.copy(os.path.join(dup, "pmpi-trace-rank-1.txt"), os.path.join(dup, "pmpi-trace-rank-01.txt"))
    fifo = variant("fifo", lambda r, l: l)
    os.remove(os.path.join(fifo, "pmpi-trace-rank-1.txt"))
    os.mkfifo(os.path.join(fifo, "pmpi-trace-rank-1.txt"))
    expect(stat.S_ISFIFO(os.stat(os.path.join(fifo, "pmpi-trace-rank-1.txt")).st_mode), "a FIFO")
    several = variant("several", lambda r, l: l, "trace_x-{}.dat")
    for r in range(2):
        shutil.copy(os.path.join(good, f"pmpi-trace-rank-{r}.txt"), os.path.join(several, f"other-{r}.txt"))
    missing = variant("missing", lambda r, l: l)
    os.remove(os.path.join(missing, "pmpi-trace-rank-0.txt"))
    for d, message in ((dup, "two files for rank 1"), (fifo, "is not a regular file"),
                       (several, "holds several sets of traces"), (missing, "no trace files")):
        proc = replay(d, "-o", out)
        expect(proc.returncode == 2 and message in proc.stderr, f"{os.path.basename(d)}: exit {proc.returncode}: {proc.stderr}")
    proc = replay(os.path.join(several, "other-0.txt"), "-o", out)
    expect(proc.returncode == 0, f"rank 0's file picks its set: {proc.stderr}")
    print("refusals: ok")


# The scenarios in the order they are written, then the samples and the refusals.
SCENARIOS = {name[len("scenario_"):]: f for name, f in list(globals().items()) if name.startswith("scenario_")}
TESTS = {**SCENARIOS, "shared_sample": test_shared_sample, "lammps_sample": test_lammps_sample,
         "refusals": test_refusals}


def main():
    code = run_scenarios(TESTS, sys.argv, {"scenarios": list(SCENARIOS), "sample": ["shared_sample", "lammps_sample"]})
    if RESULTS:
        print("| trace | ranks | traced (s) | simulated (s) | GOAL operations |")
        for name, ranks, traced, simulated, ops in RESULTS:
            sim = f"{simulated:.6f}" if simulated is not None else "no LogGOPSim"
            print(f"| {name} | {ranks} | {traced:.6f} | {sim} | {ops} |")
    if code == 0 and sys.argv[1:2] != ["--list"]:
        print("trace_replay: ok")
    return code


if __name__ == "__main__":
    sys.exit(main())
