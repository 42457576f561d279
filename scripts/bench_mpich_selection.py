#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Wall time of an MPICH algorithm sweep: one launch per algorithm (names in the
environment) against one launch through MPI_T.

usage: scripts/bench_mpich_selection.py EXPERIMENT [--rounds 6] [--before REV]

Both sides run this build's pico on the local-mpich platform; only the MPICH
catalogue differs. "env" puts the catalogue of git revision REV (default
2399004, the last one before MPI_T selection for MPICH) in ./configs/catalog of
its scratch directory, which pico reads before its own; "mpi_t" uses the
tree's catalogue. Rounds alternate which side runs first; prints per round the
walls, launches and the overhead beyond the cases (wall minus the cases'
summed elapsed_s), then the per-round ratios mpi_t / env. Needs a build in build/.
"""

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICO = os.path.join(ROOT, "build", "pico")
PLATFORM = os.path.join(ROOT, "platforms", "local-mpich.yaml")


def run(side_dir, experiment, out):
    start = time.monotonic()
    # A side's ./configs/catalog/ (the env side's old catalogue), read first only when named.
    catalog = os.path.join(side_dir, "configs", "catalog")
    env = dict(os.environ, PICO_CATALOG_DIR=catalog) if os.path.isdir(catalog) else None
    proc = subprocess.run([PICO, "run", experiment, "-p", PLATFORM, "-o", out, "-q"], capture_output=True,
                          text=True, cwd=side_dir, env=env)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"pico run failed in {side_dir}:\n{proc.stderr[-2000:]}")
    report = json.load(open(glob.glob(os.path.join(out, "**", "report.json"), recursive=True)[0]))
    cases_s = sum(c.get("elapsed_s") or 0 for c in report["cases"])
    mechanisms = sorted({c["selection"]["mechanism"] for c in report["cases"] if c["status"] == "ok"})
    return {"wall": wall, "launches": report["run"]["launches"], "overhead": wall - cases_s,
            "ok": sum(c["status"] == "ok" for c in report["cases"]), "mechanisms": mechanisms}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiment")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--before", default="2399004")
    args = parser.parse_args()
    experiment = os.path.abspath(args.experiment)
    with tempfile.TemporaryDirectory(prefix="pico-bench-mpich-") as tmp:
        sides = {"env": os.path.join(tmp, "env"), "mpi_t": os.path.join(tmp, "mpi_t")}
        os.makedirs(os.path.join(sides["env"], "configs", "catalog"))
        os.makedirs(sides["mpi_t"])
        with open(os.path.join(sides["env"], "configs", "catalog", "mpich.yaml"), "w") as f:
            f.write(subprocess.run(["git", "-C", ROOT, "show", f"{args.before}:configs/catalog/mpich.yaml"],
                                   capture_output=True, text=True, check=True).stdout)
        ratios = []
        for r in range(args.rounds):
            order = ["env", "mpi_t"] if r % 2 == 0 else ["mpi_t", "env"]
            res = {side: run(sides[side], experiment, os.path.join(sides[side], f"out-{r}")) for side in order}
            ratios.append(res["mpi_t"]["wall"] / res["env"]["wall"])
            print(f"round {r} ({' then '.join(order)}): " + " | ".join(
                f"{side} {x['wall']:.2f} s, {x['launches']} launches, overhead {x['overhead']:.2f} s, "
                f"{x['ok']} ok via {'/'.join(x['mechanisms'])}" for side, x in sorted(res.items()))
                  + f" | mpi_t/env {ratios[-1]:.3f}", flush=True)
            for side in sides.values():
                shutil.rmtree(os.path.join(side, f"out-{r}"), ignore_errors=True)
        print(f"mpi_t/env per round, sorted: {[round(x, 3) for x in sorted(ratios)]}; "
              f"median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
