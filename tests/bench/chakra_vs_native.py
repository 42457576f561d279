#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Benchmark (not a test): does a tuned profile's per-size choice reach ASTRA-sim? (issue 37)

For each size, one allreduce on 8 NPUs replayed with a profile (recursive
doubling to 255 B, Rabenseifner to 1 MiB, the default above) as Chakra traces
(pico replay --format chakra), simulated by ASTRA-sim's analytical backend,
beside the chosen algorithm run alone: natively where ASTRA-sim has it
(--algorithm allreduce=ring|rabenseifner -> ring|halvingDoubling), and as
pico's schedule written out as messages (two groups of 8 on 16 NPUs, where
ASTRA-sim runs neither a custom implementation nor its own), and ASTRA-sim's
ring for every size (what a system file alone gives: pico export's
astra-sim format holds one implementation per collective). Prints a
markdown table (docs/simulation.md).

Usage: PICO_ASTRA_SIM=.../AstraSim_Analytical_Congestion_Unaware tests/bench/chakra_vs_native.py [--pico build/pico]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SIZES = ["64B", "1KiB", "64KiB", "1MiB", "16MiB"]
PROFILE_RANGES = [(0, 255, "recursive_doubling"), (256, 1048575, "rabenseifner"), (1048576, None, "default")]


def profile(path):
    ranges = [{"min_bytes": lo, "max_bytes": hi, "algorithm": alg, "params": {}, "speedup": None,
               "measured_bytes": [], "evidence": []} for lo, hi, alg in PROFILE_RANGES]
    json.dump({"schema": "pico-profile/1", "library": {"backend": "mpi", "name": "openmpi", "version": "4.1.4"},
               "platform": "bench", "objective": "median", "min_gain": 0.05, "test": "benchmark fixture",
               "reports": [], "confidence": 0.95, "created": "2026-11-26T00:00:00Z", "pico_version": "0.1.0",
               "rules": [{"collective": "allreduce", "comm_size": 8, "nodes": 8, "ppn": 1, "ranges": ranges}]},
              open(path, "w"))


def workload(path, size, ranks, group):
    comm = f"communicators:\n  half: {{group_size: {group}}}\n" if group != ranks else ""
    call = f"  - {{collective: allreduce, size: {size}{', comm: half' if group != ranks else ''}}}\n"
    open(path, "w").write(f"name: bench\nranks: {ranks}\n{comm}iterations: 1\ncalls:\n{call}")


def simulate(pico, astra, args, prefix):
    """(simulated us, the choice line, the forms line) of one replay."""
    proc = subprocess.run([pico, "replay", *args, "--format", "chakra", "-o", prefix], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"pico replay {' '.join(args)}: {proc.stderr}")
    command = shlex.split(re.search(r"Run ASTRA-sim: (.*)", proc.stdout).group(1))[1:]
    sim = subprocess.run([astra, *command], capture_output=True, text=True, timeout=600, cwd=os.path.dirname(prefix))
    cycles = [int(c) for c in re.findall(r"finished, (\d+) cycles", sim.stdout + sim.stderr)]
    if sim.returncode != 0 or not cycles:
        sys.exit(f"ASTRA-sim failed on {prefix}: {(sim.stdout + sim.stderr)[-2000:]}")
    choice = re.search(r"allreduce \S+ on \d+ ranks: (\S+)", proc.stdout).group(1)
    forms = re.search(r"collective calls: (\d+) run by ASTRA-sim's implementation, (\d+) by pico's schedule", proc.stdout)
    form = "native" if forms.group(1) != "0" else "custom" if forms.group(2) != "0" else "written out"
    return max(cycles) / 1000, choice, form


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pico", default="build/pico")
    args = ap.parse_args()
    astra = os.environ.get("PICO_ASTRA_SIM")
    if not astra:
        sys.exit("set PICO_ASTRA_SIM to ASTRA-sim's AstraSim_Analytical_Congestion_Unaware")
    print("| allreduce, 8 NPUs | profile's choice | as | pico's workload with the profile | chosen algorithm natively | "
          "chosen algorithm as pico's schedule written out | profile / alone | ASTRA-sim's ring |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        prof = os.path.join(tmp, "profile.json")
        profile(prof)
        for size in SIZES:
            w8, w16 = os.path.join(tmp, f"w8-{size}.yaml"), os.path.join(tmp, f"w16-{size}.yaml")
            workload(w8, size, 8, 8)
            workload(w16, size, 16, 8)
            t_profile, choice, form = simulate(args.pico, astra, [w8, "--profile", prof], os.path.join(tmp, f"p{size}"))
            native = {"ring": "ring", "rabenseifner": "halvingDoubling"}.get(choice)
            t_native = (simulate(args.pico, astra, [w8, "--algorithm", f"allreduce={choice}"], os.path.join(tmp, f"n{size}"))[0]
                        if native else None)
            t_out = None
            if choice != "ring":  # a ring on a group is ASTRA-sim's own
                t_out = simulate(args.pico, astra, [w16, "--algorithm", f"allreduce={choice}"], os.path.join(tmp, f"o{size}"))[0]
            alone = t_native if native else t_out
            t_ring = simulate(args.pico, astra, [w8, "--algorithm", "allreduce=ring"], os.path.join(tmp, f"r{size}"))[0]
            print(f"| {size} | {choice} | {form} | {t_profile:.2f} us | "
                  f"{f'{t_native:.2f} us ({native})' if native else '-'} | {f'{t_out:.2f} us' if t_out else '-'} | "
                  f"{t_profile / alone:.3f} | {t_ring:.2f} us |")


if __name__ == "__main__":
    main()
