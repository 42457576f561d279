#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The library default's time over the best algorithm's, per collective and
size, from one or more sweeps with `algorithms: all` (e.g.
configs/examples/algorithm-sweep.yaml; docs/platforms.md#an-emulated-cluster).

    scripts/default_vs_best.py [--stat median_s] RESULT_DIR [RESULT_DIR...]

One table per run: collective x size, each cell `default/best (best algorithm)`.
With two or more runs, the run-to-run spread of each case's statistic,
(max - min) / min over the runs, summarised for cases above and below 1 ms.
"""
import argparse
import json
import statistics
import sys


def load_cases(directory, stat):
    with open(f"{directory}/report.json", encoding="utf-8") as f:
        report = json.load(f)
    return {(c["collective"], c["bytes"], c["algorithm"]): c["timing"][stat]
            for c in report["cases"] if c["status"] == "ok" and c["backend"] == "mpi"}


def size_name(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def ratio_table(cases):
    collectives = sorted({k[0] for k in cases})
    sizes = sorted({k[1] for k in cases})
    rows = []
    for coll in collectives:
        for size in sizes:
            default = cases.get((coll, size, "default"))
            rivals = {k[2]: t for k, t in cases.items() if k[0] == coll and k[1] == size and k[2] != "default"}
            if default is None or not rivals:
                continue
            best = min(rivals, key=rivals.get)
            rows.append((coll, size, default / rivals[best], best, default, rivals[best]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stat", default="median_s", help="timing statistic: median_s, min_s, ...")
    parser.add_argument("dirs", nargs="+", help="result directories holding report.json")
    args = parser.parse_args()
    runs = [load_cases(d, args.stat) for d in args.dirs]
    for d, cases in zip(args.dirs, runs):
        rows = ratio_table(cases)
        if not rows:
            sys.exit(f"{d}: no collective with both a default and another algorithm measured")
        print(f"## {d}: default / best ({args.stat})\n")
        print("| collective | size | default / best | best algorithm | default | best |")
        print("|---|---|---|---|---|---|")
        for coll, size, ratio, best, t_default, t_best in rows:
            mark = "**" if ratio >= 1.5 else ""
            print(f"| {coll} | {size_name(size)} | {mark}{ratio:.2f}{mark} | {best} | "
                  f"{t_default * 1e3:.3f} ms | {t_best * 1e3:.3f} ms |")
        ratios = [r[2] for r in rows]
        print(f"\n{len(rows)} collective x size cells; default is the best in {sum(r <= 1.0 for r in ratios)}; "
              f"median ratio {statistics.median(ratios):.2f}, max {max(ratios):.2f}\n")
    if len(runs) > 1:
        common = set.intersection(*(set(r) for r in runs))
        big, small = [], []
        for key in common:
            values = [r[key] for r in runs]
            spread = (max(values) - min(values)) / min(values)
            (big if statistics.median(values) > 1e-3 else small).append(spread)
        for name, spreads in (("above 1 ms", big), ("below 1 ms", small)):
            if spreads:
                within = sum(s <= 0.05 for s in spreads)
                print(f"run-to-run spread, cases {name}: {len(spreads)} cases, median {statistics.median(spreads):.1%}, "
                      f"max {max(spreads):.1%}, {within} within 5%")


if __name__ == "__main__":
    main()
