#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark (not a test): does pico measure what OSU's micro-benchmarks measure? (issue 64;
docs/benchmarks.md#pico-vs-osu)

For every collective OSU has a binary for in PICO_OSU_DIR (osu_allreduce, osu_reduce, ...; the
non-blocking ones, osu_i<coll>, against pico's `--call nonblocking` and OSU's "Pure Comm." column)
and each process count, runs `pico bench` and OSU alternately (pico first in even rounds, OSU first
in odd ones) for --rounds rounds over the same sizes and prints, per size, the best round of each
and their ratio (best-round rule: a slow period of a shared machine inflates single rounds, not the
best one), then each round's like-for-like ratio (pico's launch of round r / OSU's of round r) and
their median. OSU prints, per size, the average over ranks of each rank's mean time in its own call
(MPI_Wtime around the call on that rank); pico's sample is the slowest rank's (docs/methodology.md#
pico-and-osu). So pico runs with --keep-samples and the like-for-like figure is computed from its
per-rank arrivals and exits (rank_samples): each rank's mean of exit - arrival, averaged over ranks
(ratio); pico's own mean (ratio_max) and median (ratio_med) beside it. Nothing of OSU's is built into pico: build it
yourself (docs/benchmarks.md says how) and name the directory of its binaries.

Size conventions: both use the per-rank block for allgather, alltoall, gather and scatter.
osu_reduce_scatter calls MPI_Reduce_scatter on the whole vector (-m), split count / np per rank with
the remainder on the first ranks: pico's reduce_scatterv, whose size is that vector and whose split is
OSU's (collectives/reduce_scatterv.cpp), so both run the same call on the same counts.

Usage: PICO_OSU_DIR=/path/to/osu/binaries tests/bench/osu_fidelity.py [--np 2,4] [--rounds 4]
           [--sizes 4B:4MiB] [--collectives allreduce,bcast] [--time-budget 200ms] [--pico build/pico]
           [--pico-args='--algorithm butterfly'] [--osu-mca KEY=VALUE,...]
Same algorithm on both sides (Open MPI's butterfly for MPI_Reduce_scatter, id 4 of
coll_tuned_reduce_scatter_algorithm):
  --collectives reduce_scatter --pico-args='--algorithm butterfly' \
  --osu-mca coll_tuned_use_dynamic_rules=1,coll_tuned_reduce_scatter_algorithm=4
Exits 77 (skipped) with a reason when PICO_OSU_DIR is not given or holds no OSU binary.
"""
import argparse
import base64
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BLOCKING = ["allreduce", "reduce", "reduce_scatter", "allgather", "alltoall", "bcast", "gather", "scatter",
            "barrier"]
NONBLOCKING = ["iallreduce", "ireduce", "iallgather", "ialltoall", "ibcast", "igather", "iscatter", "ibarrier"]
# pico's collective for an OSU binary where their names differ (osu_<name>; the non-blocking
# osu_i<name> as the blocking one's).
PICO_COLLECTIVE = {"reduce_scatter": "reduce_scatterv"}
UNITS = {"B": 1, "KiB": 1024, "MiB": 1024**2}
SKIP = 77


def size_bytes(text):
    m = re.fullmatch(r"(\d+)(B|KiB|MiB)", text)
    if not m:
        raise SystemExit(f"bad size {text!r}: e.g. 4B, 64KiB, 4MiB")
    return int(m.group(1)) * UNITS[m.group(2)]


def size_list(spec):
    if ":" not in spec:
        return [size_bytes(s) for s in spec.split(",")]
    lo, hi = (size_bytes(s) for s in spec.split(":")[:2])
    sizes, s = [], lo
    while s <= hi:
        sizes.append(s)
        s *= 2
    return sizes


def find_osu(osu_dir, name):
    for sub in ("", "mpi/collective", "libexec/osu-micro-benchmarks/mpi/collective"):
        path = os.path.join(osu_dir, sub, f"osu_{name}")
        if os.access(path, os.X_OK):
            return path
    return None


def mpirun_flags(np):
    flags = ["--oversubscribe"] if np > (os.cpu_count() or 1) else []
    return flags + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def rank_mean_us(case):
    """OSU's statistic from pico's per-rank samples: each rank's mean of exit - arrival, averaged over
    ranks (us); None without rank_samples."""
    rs = case.get("rank_samples")
    if not rs:
        return None
    ranks, samples = rs["ranks"], rs["samples"]
    arrival = struct.unpack(f"<{ranks * samples}f", base64.b64decode(rs["arrival_s"]))
    exit_ = struct.unpack(f"<{ranks * samples}f", base64.b64decode(rs["exit_s"]))
    means = [sum(exit_[r * samples + i] - arrival[r * samples + i] for i in range(samples)) / samples
             for r in range(ranks)]
    return sum(means) / ranks * 1e6


def pico_times(pico, coll, np, sizes, budget, tmp, extra=()):
    """{size: (osu_like_us, mean_us, median_us)} for one pico launch over all sizes."""
    osu_base = coll[1:] if coll in NONBLOCKING else coll
    base = PICO_COLLECTIVE.get(osu_base, osu_base)
    args = [pico, "bench", base, "--np", str(np), "--time-budget", budget, "--keep-samples", "-q", "-o", tmp]
    if coll in NONBLOCKING:
        args += ["--call", "nonblocking"]
    args += list(extra)
    pico_sizes = {}
    if base != "barrier":
        pico_sizes = {s: s for s in sizes}
        args += ["--sizes", ",".join(f"{b}B" for b in pico_sizes)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    m = re.search(r"^report: (.+)$", out.stdout, re.M)
    if not m:
        raise RuntimeError(f"pico bench {base} np={np}: no report\n{out.stdout}\n{out.stderr}")
    times = {}
    for case in json.load(open(m.group(1), encoding="utf-8"))["cases"]:
        if case.get("status") != "ok":
            continue
        key = 0 if base == "barrier" else pico_sizes.get(case["bytes"])
        if key is not None:
            times[key] = (rank_mean_us(case), case["timing"]["mean_s"] * 1e6, case["timing"]["median_s"] * 1e6)
    return times


def osu_times(binary, coll, np, sizes, mca=()):
    """{size: mean_us}: OSU's average latency (non-blocking: its pure communication time)."""
    args = ["mpirun", "-np", str(np), *mpirun_flags(np)]
    for setting in mca:
        key, _, value = setting.partition("=")
        args += ["--mca", key, value]
    args.append(binary)
    if coll not in ("barrier", "ibarrier"):
        args += ["-m", f"{min(sizes)}:{max(sizes)}"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(f"{binary}: exit {out.returncode}\n{out.stderr}")
    column = 3 if coll in NONBLOCKING else 1  # Overall, Compute, Pure Comm., Overlap
    times = {}
    for line in out.stdout.splitlines():
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        try:
            if coll in ("barrier", "ibarrier"):
                times[0] = float(fields[column - 1])
            else:
                times[int(fields[0])] = float(fields[column])
        except (ValueError, IndexError):
            continue
    return times


def best(rounds, key, pick=lambda v: v):
    values = [pick(r[key]) for r in rounds if key in r]
    return min(values) if values else None


def compare(pico, osu_dir, coll, np, sizes, rounds, budget, pico_extra=(), osu_mca=()):
    binary = find_osu(osu_dir, coll)
    if binary is None:
        return None
    pico_rounds, osu_rounds = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            order = ("pico", "osu") if r % 2 == 0 else ("osu", "pico")
            for who in order:
                if who == "pico":
                    pico_rounds.append(pico_times(pico, coll, np, sizes, budget, tmp, pico_extra))
                else:
                    osu_rounds.append(osu_times(binary, coll, np, sizes, osu_mca))
    keys = [0] if coll in ("barrier", "ibarrier") else sizes
    rows = []
    for s in keys:
        p_like = best([r for r in pico_rounds if s in r and r[s][0] is not None], s, lambda v: v[0])
        p_mean = best(pico_rounds, s, lambda v: v[1])
        p_med = best(pico_rounds, s, lambda v: v[2])
        o = best(osu_rounds, s)
        if p_mean is None or o is None or o <= 0:
            continue
        # Round r's like-for-like ratio: pico's launch of round r against OSU's of the same round.
        per_round = [(pr[s][0] / orr[s]) if (s in pr and s in orr and pr[s][0] is not None and orr[s] > 0)
                     else None for pr, orr in zip(pico_rounds, osu_rounds)]
        rows.append((s, p_like, p_mean, p_med, o, per_round))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--sizes", default="4B:4MiB")
    ap.add_argument("--collectives", default=",".join(BLOCKING + NONBLOCKING))
    ap.add_argument("--time-budget", default="200ms", help="pico's timed-loop budget per case")
    ap.add_argument("--pico", default=os.path.join(ROOT, "build", "pico"))
    ap.add_argument("--pico-args", default="", help="more `pico bench` arguments, e.g. '--algorithm butterfly'")
    ap.add_argument("--osu-mca", default="",
                    help="Open MPI parameters for OSU's mpirun, KEY=VALUE,...: e.g. coll_tuned_use_dynamic_rules=1,"
                         "coll_tuned_reduce_scatter_algorithm=4")
    args = ap.parse_args()
    osu_dir = os.environ.get("PICO_OSU_DIR", "")
    if not osu_dir:
        print("skipped: PICO_OSU_DIR is not set (the directory of OSU's osu_<collective> binaries)")
        return SKIP
    found = [c for c in args.collectives.split(",") if find_osu(osu_dir, c)]
    if not found:
        print(f"skipped: no osu_<collective> binary in {osu_dir}")
        return SKIP
    missing = [c for c in args.collectives.split(",") if c not in found]
    if missing:
        print(f"not in {osu_dir}: {', '.join('osu_' + c for c in missing)}")
    sizes = size_list(args.sizes)
    for np in (int(n) for n in args.np.split(",")):
        if np > (os.cpu_count() or 1):
            print(f"\nnp {np} exceeds the {os.cpu_count()} cores: oversubscribed, both measure descheduling")
        for coll in found:
            rows = compare(args.pico, osu_dir, coll, np, sizes, args.rounds, args.time_budget,
                           args.pico_args.split(), [m for m in args.osu_mca.split(",") if m])
            print(f"\n{coll} np={np} (best of {args.rounds} alternating rounds)")
            print("| size | pico rank-mean us | pico mean us | pico median us | OSU us | ratio | ratio_max | ratio_med "
                  "| ratio per round | median round |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
            for s, p_like, p_mean, p_med, o, per_round in rows:
                label = "-" if coll in ("barrier", "ibarrier") else f"{s}"
                like = "-" if p_like is None else f"{p_like:.2f}"
                ratio = "-" if p_like is None else f"{p_like / o:.2f}"
                rounds_text = " ".join("-" if v is None else f"{v:.2f}" for v in per_round)
                known = sorted(v for v in per_round if v is not None)
                mid = "-" if not known else f"{statistics.median(known):.2f}"
                print(f"| {label} | {like} | {p_mean:.2f} | {p_med:.2f} | {o:.2f} | {ratio} | {p_mean / o:.2f} "
                      f"| {p_med / o:.2f} | {rounds_text} | {mid} |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
