#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reference ring / Open MPI ring time ratios from runs of
configs/examples/reference-vs-library.yaml (docs/benchmarks.md).

    scripts/reference_ratio.py [--stat median_s] RESULT_DIR...

For each size: the ratio in every run, then the median, min and max over
the runs. On a shared machine single runs swing widely (a rank descheduled
for a while moves a median by several times), so judge the median over
several runs, taken side by side.
"""
import argparse
import json
import statistics


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stat", default="median_s", help="timing statistic: median_s, min_s, p5_s, ...")
    parser.add_argument("dirs", nargs="+", help="result directories holding report.json")
    args = parser.parse_args()
    pairs = {}
    for d in args.dirs:
        with open(f"{d}/report.json") as f:
            report = json.load(f)
        t = {(c["backend"], c["algorithm"], c["bytes"]): c["timing"][args.stat] * 1e6
             for c in report["cases"] if c["status"] == "ok"}
        for size in sorted({k[2] for k in t}):
            ref, ompi = t.get(("reference", "ring", size)), t.get(("mpi", "ring", size))
            if ref is not None and ompi is not None:
                pairs.setdefault(size, []).append((d, ref, ompi))
    for size, runs in sorted(pairs.items()):
        ratios = [ref / ompi for _, ref, ompi in runs]
        for d, ref, ompi in runs:
            print(f"{size >> 20:3d} MiB  {d}: reference {ref:.1f} us, Open MPI ring {ompi:.1f} us, ratio {ref / ompi:.3f}")
        print(f"{size >> 20:3d} MiB  {args.stat} ratio over {len(runs)} runs: median {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f}")


if __name__ == "__main__":
    main()
