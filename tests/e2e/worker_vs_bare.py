#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The worker's allreduce is not 2x slower than a bare MPI loop (issue 64).

usage: worker_vs_bare.py   (PICO = the pico binary, PICO_BARE = pico-bare-allreduce, built
                            against the same MPI library as the worker)

Runs `pico bench allreduce --np 2` at 256 KiB and 1 MiB and the bare loop of the same call
(tests/bench/bare_allreduce.c: barrier, one timed call, slowest rank, median) alternately, pico
first in even rounds. A shared machine slows single rounds, not the best one, so the check compares
each side's best round and allows 2x: a path that is 3-5x slower (issue 64) fails however loaded
the machine is, and noise cannot fail it unless every round of pico is slowed and none of the bare
loop's. Stops after MIN_ROUNDS when every size already passes, else runs up to MAX_ROUNDS.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PICO = os.environ["PICO"]
BARE = os.environ["PICO_BARE"]
SIZES = [256 * 1024, 1024 * 1024]
LIMIT = 2.0
MIN_ROUNDS, MAX_ROUNDS = 3, 8


def mpirun_flags():
    return ["--allow-run-as-root"] if os.geteuid() == 0 else []


def pico_medians_us(tmp):
    proc = subprocess.run([PICO, "bench", "allreduce", "--np", "2", "--sizes", ",".join(f"{s}B" for s in SIZES),
                           "--time-budget", "300ms", "-q", "-o", tmp], capture_output=True, text=True, timeout=240)
    m = re.search(r"^report: (.+)$", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise SystemExit(f"pico bench failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    cases = json.load(open(m.group(1), encoding="utf-8"))["cases"]
    return {c["bytes"]: c["timing"]["median_s"] * 1e6 for c in cases if c["status"] == "ok"}


def bare_median_us(size):
    proc = subprocess.run(["mpirun", "-np", "2", *mpirun_flags(), BARE, str(size // 4), "300"], capture_output=True,
                          text=True, timeout=240)
    m = re.search(r"median_us=([\d.]+)", proc.stdout)
    if proc.returncode != 0 or not m:
        raise SystemExit(f"pico-bare-allreduce failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return float(m.group(1))


def main():
    pico_best, bare_best = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(MAX_ROUNDS):
            steps = ["pico", "bare"] if r % 2 == 0 else ["bare", "pico"]
            for step in steps:
                if step == "pico":
                    for size, t in pico_medians_us(tmp).items():
                        pico_best[size] = min(t, pico_best.get(size, t))
                else:
                    for size in SIZES:
                        t = bare_median_us(size)
                        bare_best[size] = min(t, bare_best.get(size, t))
            ratios = {s: pico_best.get(s, float("inf")) / bare_best[s] for s in SIZES}
            print(f"round {r}: " + ", ".join(f"{s // 1024} KiB pico {pico_best.get(s, float('nan')):.1f} us / "
                                             f"bare {bare_best[s]:.1f} us = {ratios[s]:.2f}" for s in SIZES))
            if r + 1 >= MIN_ROUNDS and all(x <= LIMIT for x in ratios.values()):
                print(f"ok: the worker's allreduce is within {LIMIT}x of the bare loop (best rounds)")
                return 0
    slow = [f"{s // 1024} KiB: {ratios[s]:.2f}x" for s in SIZES if ratios[s] > LIMIT]
    print(f"FAIL: the worker's allreduce is more than {LIMIT}x slower than a bare MPI loop of the same call "
          f"over {MAX_ROUNDS} rounds (best round each): {', '.join(slow)} (issue 64)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
