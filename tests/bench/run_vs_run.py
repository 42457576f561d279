#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Does a sweep reproduce itself? Two runs of one experiment, compared choice by choice
(docs/methodology.md#rounds).

usage: run_vs_run.py RUN_1 RUN_2 [--tolerance 0.05] [--pico PICO]

At every choice (collective, np, size, datatype, op, mode; every candidate
of every backend: the library's default, its algorithms, pico's reference
ones) measured in both runs with two or more candidates, run 1's fastest
is priced in run 2: it counts as reproduced when run 2 measured it within
the tolerance of run 2's fastest. Each candidate's time is pico's own
estimate: `pico compare RUN` against the library default of its size
(paired round by round where the run measured in rounds, docs/methodology.md#rounds);
with --medians, each case's pooled timing.median_s instead. Prints one line
per collective, the totals, each run's own split-half reproducibility (the
report's `reproducibility`) and the launches' wall time (run.launch_log).
"""
import argparse
import json
import os
import subprocess
import sys

from bench_reports import launch_wall, report_of


def label(case):
    params = " ".join(f"{k}={v:g}" for k, v in sorted((case.get("params") or {}).items()))
    return f"{case['backend']}:{case['algorithm']}" + (f" {params}" if params else "")


def medians(report):
    """(collective, np, bytes, dtype, op, mode) -> {candidate: median_s}"""
    out = {}
    for c in report["cases"]:
        if c["status"] != "ok" or not c.get("timing"):
            continue
        key = (c["collective"], c["np"], c["bytes"], c["dtype"], c["op"], c["mode"])
        out.setdefault(key, {})[label(c)] = c["timing"]["median_s"]
    return out


def compared(pico, run_dir):
    """The same keys -> {candidate: time relative to the library default}, from pico compare."""
    proc = subprocess.run([pico, "compare", run_dir, "--format", "json"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"pico compare {run_dir}: exit {proc.returncode}\n{proc.stderr}")
    out = {}
    for row in json.loads(proc.stdout):
        if not row.get("speedup"):
            continue
        key = (row["collective"], row["np"], row["bytes"], row["dtype"], row["op"], row["mode"])
        times = out.setdefault(key, {row["baseline"]: 1.0})
        times[row["candidate"]] = 1.0 / row["speedup"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run1")
    ap.add_argument("run2")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--medians", action="store_true", help="price with each case's pooled median instead")
    ap.add_argument("--pico", default=os.environ.get("PICO", "pico"))
    args = ap.parse_args()
    r1, r2 = report_of(args.run1), report_of(args.run2)
    if args.medians:
        c1, c2 = medians(r1), medians(r2)
    else:
        c1, c2 = compared(args.pico, args.run1), compared(args.pico, args.run2)
    per = {}
    for key in sorted(set(c1) & set(c2)):
        m1, m2 = c1[key], c2[key]
        common = set(m1) & set(m2)
        if len(common) < 2:
            continue
        best1 = min(common, key=lambda k: m1[k])
        best2 = min(common, key=lambda k: m2[k])
        near = m2[best1] <= (1 + args.tolerance) * m2[best2]
        row = per.setdefault(key[0], [0, 0, 0])
        row[0] += 1
        row[1] += best1 == best2
        row[2] += near
    total = [sum(v[i] for v in per.values()) for i in range(3)]
    print(f"{'collective':<16} {'points':>6} {'same best':>10} {'run 1 best within':>18}")
    for coll, (n, same, near) in sorted(per.items()):
        print(f"{coll:<16} {n:>6} {same:>10} {near:>18}")
    n, same, near = total
    pct = lambda k: 100.0 * k / max(n, 1)
    print(f"{'all':<16} {n:>6} {same:>5} ({pct(same):.0f}%) {near:>11} ({pct(near):.0f}%)  "
          f"[within {args.tolerance * 100:.0f}% of run 2's fastest, priced in run 2]")
    for name, r in (("run 1", r1), ("run 2", r2)):
        rep = r.get("reproducibility")
        rep_text = (f"split-half over {rep['split']}: same best {rep['same_best']}/{rep['choices']}, "
                    f"near {rep['near_best']}/{rep['choices']}") if rep else "no reproducibility recorded"
        print(f"{name}: launch wall time {launch_wall(r):.1f} s; {rep_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
