#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pico's median MPI_Allreduce time against a bare timing loop of the same call.

usage: scripts/bench_overhead.py [--np 2] [--rounds 3] [--sizes 8B,1KiB,64KiB,1MiB]

Both use the same method (untimed barrier before each call, slowest rank per
iteration, median). Runs are interleaved round by round so machine noise hits
both alike; prints per-size medians and the ratio pico / bare (1.00 = no
overhead). Needs a build in build/ (scripts/build.sh).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
UNITS = {"B": 1, "KiB": 1024, "MiB": 1024**2}


def size_bytes(text):
    m = re.fullmatch(r"(\d+)(B|KiB|MiB)", text)
    return int(m.group(1)) * UNITS[m.group(2)]


def mpirun_flags(np):
    flags = ["--oversubscribe"] if np > os.cpu_count() else []
    return flags + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def bare_median_us(np, count, iterations):
    out = subprocess.run(["mpirun", "-np", str(np), *mpirun_flags(np), os.path.join(BUILD, "pico-bare-allreduce"),
                          str(count), str(iterations)], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"median_us=([\d.]+)", out).group(1))


def pico_median_us(np, size, tmp):
    out = subprocess.run([os.path.join(BUILD, "pico"), "bench", "allreduce", "--np", str(np), "--sizes", size,
                          "--time-budget", "1s", "-q", "-o", tmp], capture_output=True, text=True, check=True).stdout
    report = json.load(open(re.search(r"report: (.+)", out).group(1)))
    case = report["cases"][0]
    return case["timing"]["median_s"] * 1e6, case["iterations"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", default="8B,1KiB,64KiB,1MiB")
    args = ap.parse_args()
    print(f"{'size':>8} {'pico_us':>10} {'bare_us':>10} {'ratio':>6}  (median of {args.rounds} rounds, np={args.np})")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            pico_runs, bare_runs = [], []
            for _ in range(args.rounds):
                median, iterations = pico_median_us(args.np, size, tmp)
                pico_runs.append(median)
                bare_runs.append(bare_median_us(args.np, size_bytes(size) // 4, max(iterations, 20)))
            p, b = statistics.median(pico_runs), statistics.median(bare_runs)
            print(f"{size:>8} {p:>10.2f} {b:>10.2f} {p / b:>6.2f}")


if __name__ == "__main__":
    main()
