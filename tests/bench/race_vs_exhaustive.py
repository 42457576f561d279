#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A raced sweep against the exhaustive one it stands for (docs/tuning.md#racing).

usage: race_vs_exhaustive.py EXHAUSTIVE_RUN RACED_RUN [--judge RUN] [--pico PICO]

Both runs must be the same experiment (pico run X and pico run X --race B).
Each is tuned with `pico tune`; at every (collective, np, size) the raced
profile's choice is priced with the judge's measurement of it (the
exhaustive run's, or another exhaustive run's with --judge, so that neither
profile is priced on the data it was chosen from) and compared with the
exhaustive profile's choice and with the judge's fastest. Prints one table row per size and the measurement wall times
(the launches' wall time, run.launch_log). A size the raced run skipped
(refinement) takes the raced profile's range that covers it.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from bench_reports import launch_wall, report_of


def tuned(pico, run_dir, out):
    proc = subprocess.run([pico, "tune", run_dir, "-o", out, "-q"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"pico tune {run_dir}: exit {proc.returncode}\n{proc.stderr}")
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def label(algorithm, params):
    return " ".join([algorithm] + [f"{k}={v:g}" for k, v in sorted((params or {}).items())])


def choice(profile, collective, np, size):
    for rule in profile["rules"]:
        if rule["collective"] == collective and rule["comm_size"] == np:
            for r in rule["ranges"]:
                if r["min_bytes"] <= size and ("max_bytes" not in r or r["max_bytes"] is None or size <= r["max_bytes"]):
                    return label(r["algorithm"], r.get("params"))
    return "default"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exhaustive")
    ap.add_argument("raced")
    ap.add_argument("--judge", help="an exhaustive run of the same experiment to price both choices with")
    ap.add_argument("--pico", default=os.environ.get("PICO", "pico"))
    args = ap.parse_args()
    exhaustive, raced = report_of(args.exhaustive), report_of(args.raced)
    with tempfile.TemporaryDirectory() as tmp:
        p_exh = tuned(args.pico, args.exhaustive, os.path.join(tmp, "exhaustive.json"))
        p_race = tuned(args.pico, args.raced, os.path.join(tmp, "raced.json"))

    judge = report_of(args.judge) if args.judge else exhaustive
    medians = {}  # (collective, np, size) -> {label: median} in the judge's run
    for c in judge["cases"]:
        if c["backend"] == "mpi" and c["status"] == "ok" and c["timing"]:
            medians.setdefault((c["collective"], c["np"], c["bytes"]), {})[label(c["algorithm"], c.get("params"))] = \
                c["timing"]["median_s"]
    raced_sizes = {(c["collective"], c["np"], c["bytes"]) for c in raced["cases"] if c.get("race")}

    print(f"{'collective':<10} {'np':>3} {'size':>8}  {'exhaustive choice':<36} {'raced choice':<36} "
          f"{'ratio':>6} {'best':>6}  raced")
    within, same, rows = 0, 0, 0
    near_best = {"exhaustive": 0, "raced": 0}
    log_regret = {"exhaustive": 0.0, "raced": 0.0}
    for key in sorted(medians):
        collective, np, size = key
        m = medians[key]
        if "default" not in m:
            continue
        e_choice, r_choice = choice(p_exh, collective, np, size), choice(p_race, collective, np, size)
        if e_choice not in m or r_choice not in m:
            print(f"{collective:<10} {np:>3} {size:>8}  {e_choice:<36} {r_choice:<36}  (a choice not measured here)")
            continue
        ratio = m[r_choice] / m[e_choice]
        best = m[r_choice] / min(m.values())
        for side, ch in (("exhaustive", e_choice), ("raced", r_choice)):
            regret = m[ch] / min(m.values())
            near_best[side] += regret <= 1.05
            log_regret[side] += math.log(regret)
        rows += 1
        same += r_choice == e_choice
        within += r_choice == e_choice or ratio <= 1.05
        print(f"{collective:<10} {np:>3} {size:>8}  {e_choice:<36} {r_choice:<36} {ratio:>6.3f} {best:>6.3f}  "
              f"{'yes' if key in raced_sizes else 'refined'}")
    for side in ("exhaustive", "raced"):
        print(f"{side} choice within 5% of the judge's fastest: {near_best[side]} of {rows}; geometric mean of "
              f"its time over the fastest's {math.exp(log_regret[side] / max(rows, 1)):.3f}")
    e_wall, r_wall = launch_wall(exhaustive), launch_wall(raced)
    print(f"\nsizes: {rows}; same choice {same}; raced choice within 5% of the exhaustive choice (or the same) "
          f"{within} ({100 * within / max(rows, 1):.0f}%)")
    print(f"measurement wall time: exhaustive {e_wall:.1f} s, raced {r_wall:.1f} s "
          f"({100 * r_wall / e_wall:.1f}% of exhaustive)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
