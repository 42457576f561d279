#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark (not a test): does an algorithm cost the same wherever it appears in ASTRA-sim, and does
everything pico writes run to its end? (issue 50; docs/simulation.md#astra-sim-fidelity)

Three parts, each printed as a markdown table:

paths    every reference algorithm of the collectives ASTRA-sim has nodes for, on a world of 8 NPUs
         (ASTRA-sim's implementation or pico's schedule as a custom one), on the rows of a 8 x 8 grid
         (ASTRA-sim's, or written out) and on its columns (written out: they share every NPU with a
         row); a column's time is the rows' and columns' calls minus the rows' alone.
mixed    a workload of 64 KiB, 1 MiB and 16 MiB allreduces on 8 NPUs under every profile choosing one
         of ring, Rabenseifner and recursive doubling per size, against the sum of each size alone.
matrix   every reference algorithm of the collectives a replay writes, on 2 to 16 NPUs (non-powers of
         two included), 1 B to 64 MiB, on the world and on overlapping row and column groups: each run
         with a timeout, counted as finished, hung (timeout), aborted (exit status) or with ranks that
         never finished. --before BINARY runs the matrix with another pico too (e.g. an older build).
         ASTRA-sim runs under glibc's malloc checks (libc_malloc_debug), so a double free aborts.

Usage: PICO_ASTRA_SIM=.../AstraSim_Analytical_Congestion_Unaware tests/bench/astra_sim_fidelity.py
           [--pico build/pico] [--before OLD_PICO] [--parts paths,mixed,matrix] [--jobs 2]
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SIZES = ["64KiB", "1MiB", "16MiB"]
MATRIX_SIZES = ["1B", "12B", "100B", "1KiB", "64KiB", "1MiB", "64MiB"]
MATRIX_NP = [2, 3, 4, 5, 6, 7, 8, 12, 16]
GRIDS = {4: 2, 6: 3, 12: 4, 16: 4}  # np -> row length of the overlapping row/column groups
MIXED = ["ring", "rabenseifner", "recursive_doubling"]
TIMEOUT_S = 120
MALLOC_DEBUG = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"


def reference_algorithms(pico, tmp):
    """collective -> the reference algorithms pico replay takes (from `pico replay --algorithm x=?`'s error)."""
    out = {}
    for c in ("allreduce", "allgather", "reduce_scatter", "alltoall", "bcast", "reduce", "gather", "scatter",
              "barrier"):
        call = f"collective: {c}" + ("" if c == "barrier" else ", size: 8B")
        w = workload(os.path.join(tmp, f"list-{c}.yaml"), 2, [call])
        proc = subprocess.run([pico, "replay", w, "--algorithm", f"{c}=?", "-o", "/dev/null"], capture_output=True,
                              text=True)
        m = re.search(r"one of ([\w, ]+)", proc.stderr)
        if not m:
            sys.exit(f"cannot list {c}'s algorithms: {proc.stderr}")
        out[c] = [a.strip() for a in m.group(1).split(",")]
    return out


def workload(path, ranks, calls, grid=None):
    comms = (f"communicators:\n  row: {{group_size: {grid}}}\n  col: {{group_size: {ranks // grid}, stride: {grid}}}\n"
             if grid else "")
    with open(path, "w") as f:
        f.write(f"name: bench\nranks: {ranks}\n{comms}iterations: 1\ncalls:\n")
        for c in calls:
            f.write(f"  - {{{c}}}\n")
    return path


def checked_env():
    """glibc's malloc checks where the library is at hand: ASTRA-sim's double frees abort, not pass silently."""
    env = dict(os.environ)
    if os.path.exists(MALLOC_DEBUG):
        env.update(LD_PRELOAD=MALLOC_DEBUG, GLIBC_TUNABLES="glibc.malloc.check=3")
    return env


def run(pico, astra, prefix, args, ranks):
    """(status, max finish ns, pico's output) of one replay run in ASTRA-sim: ok, hang, abort N, unfinished K/N,
    pico N."""
    proc = subprocess.run([pico, "replay", *args, "--format", "chakra", "-o", prefix], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"pico exit {proc.returncode}: {proc.stderr.strip()[-200:]}", None, proc.stdout
    command = shlex.split(re.search(r"Run ASTRA-sim: (.*)", proc.stdout).group(1))[1:]
    try:
        sim = subprocess.run([astra, *command], capture_output=True, text=True, timeout=TIMEOUT_S,
                             cwd=os.path.dirname(prefix), env=checked_env())
    except subprocess.TimeoutExpired:
        return "hang", None, proc.stdout
    finished = [int(c) for c in re.findall(r"sys\[\d+\] finished, (\d+) cycles", sim.stdout + sim.stderr)]
    if sim.returncode != 0:
        return f"abort {sim.returncode}", None, proc.stdout
    if len(finished) != ranks:
        return f"unfinished {ranks - len(finished)}/{ranks}", None, proc.stdout
    return "ok", max(finished), proc.stdout


def must(result, what):
    """The finish time of a run that must have finished, with pico's output."""
    status, ns, stdout = result
    if status != "ok":
        sys.exit(f"{what}: {status}")
    return ns, stdout


def forms(stdout):
    """'native', 'custom' or 'written out': how pico wrote the replay's last call."""
    m = re.search(r"collective calls: (\d+) run by ASTRA-sim's implementation, (\d+) by pico's schedule as a custom "
                  r"implementation \(\d+ distinct\), (\d+) written out", stdout)
    return [name for name, n in zip(("native", "custom", "written out"), m.groups()) if n != "0"]


def part_paths(pico, astra, algorithms, tmp):
    print("| collective | algorithm | bytes | world of 8 | a row of 8 (8 x 8 NPUs) | a column of 8, sharing NPUs "
          "with the rows | largest / smallest |")
    print("|---|---|---|---|---|---|---|")
    worst = {}
    for c in ("allreduce", "reduce_scatter", "allgather", "alltoall"):
        for a, size in itertools.product(algorithms[c], SIZES):
            row = f"collective: {c}, size: {size}, comm: row"
            col = f"collective: {c}, size: {size}, comm: col"
            base = os.path.join(tmp, f"paths-{c}-{a}-{size}")
            times, how = [], []
            for label, calls, ranks, grid in (("w", [f"collective: {c}, size: {size}"], 8, None),
                                              ("r", [row], 64, 8), ("rc", [row, col], 64, 8)):
                w = workload(f"{base}-{label}.yaml", ranks, calls, grid)
                ns, stdout = must(run(pico, astra, f"{base}-{label}", [w, "--algorithm", f"{c}={a}"], ranks), base)
                times.append(ns)
                how.append(" + ".join(forms(stdout)))
            world, rows, both = times
            cols = both - rows
            ratio = max(world, rows, cols) / min(world, rows, cols)
            worst[c, a] = max(worst.get((c, a), 1), ratio)
            print(f"| {c} | {a} | {size} | {world / 1e3:.2f} us ({how[0]}) | {rows / 1e3:.2f} us ({how[1]}) | "
                  f"{cols / 1e3:.2f} us (written out) | {ratio:.4f} |")
    # The linear all-to-all is always native on the world; its schedule as a custom implementation is the
    # uniform alltoallv's (the same messages; ASTRA-sim has no alltoallv node).
    print("\n| linear all-to-all, world of 8 | ASTRA-sim's direct | pico's schedule, custom (uniform alltoallv) | ratio |")
    print("|---|---|---|---|")
    for size in SIZES:
        base = os.path.join(tmp, f"paths-linear-{size}")
        native = must(run(pico, astra, base + "-a", [workload(base + "-a.yaml", 8, [f"collective: alltoall, size: {size}"]),
                                                     "--algorithm", "alltoall=linear"], 8), base)[0]
        custom = must(run(pico, astra, base + "-v", [workload(base + "-v.yaml", 8, [f"collective: alltoallv, size: {size}"]),
                                                     "--algorithm", "alltoallv=linear"], 8), base)[0]
        print(f"| {size} | {native / 1e3:.2f} us | {custom / 1e3:.2f} us | {custom / native:.4f} |")
    return worst


def part_mixed(pico, astra, tmp):
    def profile(path, choices):
        bounds = [(0, 524287), (524288, 4194303), (4194304, None)]  # 64 KiB | 1 MiB | 16 MiB
        ranges = [{"min_bytes": lo, "max_bytes": hi, "algorithm": alg, "params": {}, "speedup": None,
                   "measured_bytes": [], "evidence": []} for (lo, hi), alg in zip(bounds, choices)]
        json.dump({"schema": "pico-profile/1", "library": {"backend": "mpi", "name": "openmpi", "version": "4.1.4"},
                   "platform": "bench", "objective": "median", "min_gain": 0.05, "test": "benchmark fixture",
                   "reports": [], "confidence": 0.95, "created": "2026-11-29T00:00:00Z", "pico_version": "0.1.0",
                   "rules": [{"collective": "allreduce", "comm_size": 8, "nodes": 8, "ppn": 1, "ranges": ranges}]},
                  open(path, "w"))
        return path

    alone = {}
    for size, alg in itertools.product(SIZES, MIXED):
        base = os.path.join(tmp, f"alone-{size}-{alg}")
        w = workload(base + ".yaml", 8, [f"collective: allreduce, size: {size}"])
        alone[size, alg] = must(run(pico, astra, base, [w, "--algorithm", f"allreduce={alg}"], 8), base)[0]
    mixed = workload(os.path.join(tmp, "mixed.yaml"), 8, [f"collective: allreduce, size: {s}" for s in SIZES])
    print("| profile (64 KiB / 1 MiB / 16 MiB) | workload | sum of the sizes alone | workload / sum |")
    print("|---|---|---|---|")
    worst = 0
    for choices in itertools.product(MIXED, repeat=3):
        base = os.path.join(tmp, "mixed-" + "-".join(choices))
        t = must(run(pico, astra, base, [mixed, "--profile", profile(base + ".json", choices)], 8), base)[0]
        total = sum(alone[s, a] for s, a in zip(SIZES, choices))
        worst = max(worst, abs(t / total - 1))
        print(f"| {' / '.join(choices)} | {t / 1e3:.2f} us | {total / 1e3:.2f} us | {t / total:.4f} |")
    print(f"\nlargest difference: {worst * 100:.2f}%")


def part_matrix(binaries, astra, tmp, jobs):
    algorithms = reference_algorithms(binaries[0][1], tmp)
    runs = []
    for (c, algs), np in itertools.product(algorithms.items(), MATRIX_NP):
        sized = ["collective: barrier"] if c == "barrier" else [f"collective: {c}, size: {s}" for s in MATRIX_SIZES]
        for a in algs:
            runs.append((c, a, np, "world", sized, None))
            if np in GRIDS:
                calls = [f"{x}, comm: {comm}" for comm in ("row", "col", "row") for x in sized]
                runs.append((c, a, np, "rows+columns", calls, GRIDS[np]))
    counts = {}
    failures = []

    def one(label, pico, k, r):
        c, a, np, where, calls, grid = r
        base = os.path.join(tmp, f"m-{label}-{k}")
        status = run(pico, astra, base, [workload(base + ".yaml", np, calls, grid), "--algorithm", f"{c}={a}"], np)[0]
        return label, r, status

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(one, label, pico, k, r) for label, pico in binaries for k, r in enumerate(runs)]
        for f in concurrent.futures.as_completed(futures):
            label, (c, a, np, where, _, _), status = f.result()
            kind = status.split()[0] if not status.startswith("unfinished") else "unfinished"
            counts.setdefault(label, {}).setdefault(kind, 0)
            counts[label][kind] += 1
            if status != "ok":
                failures.append((label, c, a, np, where, status))
    print(f"{len(runs)} runs per binary: {len(algorithms)} collectives, every reference algorithm, np "
          f"{', '.join(map(str, MATRIX_NP))}, {', '.join(MATRIX_SIZES)} in one workload per run, on the world and "
          f"(np {', '.join(map(str, GRIDS))}) on overlapping row and column groups; timeout {TIMEOUT_S} s\n")
    print("| pico | runs | finished | hung | aborted | ranks unfinished | pico refused |")
    print("|---|---|---|---|---|---|---|")
    for label, _ in binaries:
        n = counts.get(label, {})
        print(f"| {label} | {sum(n.values())} | {n.get('ok', 0)} | {n.get('hang', 0)} | {n.get('abort', 0)} | "
              f"{n.get('unfinished', 0)} | {n.get('pico', 0)} |")
    for label, c, a, np, where, status in sorted(failures):
        print(f"- {label}: {c} {a} np {np} {where}: {status}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pico", default="build/pico")
    ap.add_argument("--before", help="another pico binary to run the matrix with (e.g. an older build)")
    ap.add_argument("--parts", default="paths,mixed,matrix")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    astra = os.environ.get("PICO_ASTRA_SIM")
    if not astra:
        sys.exit("set PICO_ASTRA_SIM to ASTRA-sim's AstraSim_Analytical_Congestion_Unaware")
    pico = os.path.abspath(args.pico)
    parts = args.parts.split(",")
    with tempfile.TemporaryDirectory(prefix="pico-astra-") as tmp:
        if "paths" in parts:
            part_paths(pico, astra, reference_algorithms(pico, tmp), tmp)
            print()
        if "mixed" in parts:
            part_mixed(pico, astra, tmp)
            print()
        if "matrix" in parts:
            binaries = [("this", pico)] + ([("before", os.path.abspath(args.before))] if args.before else [])
            part_matrix(binaries, astra, tmp, args.jobs)


if __name__ == "__main__":
    main()
