#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of Open MPI's components side by side, from pico reports
(configs/examples/hierarchical-components.yaml; docs/benchmarks.md).

usage: scripts/component_table.py LABEL=REPORT.json [LABEL=REPORT.json ...]

Per collective and size, for each report: the library default (and what the
interposer saw it run), the fastest of coll/tuned's algorithms, of han's
variants (han, han_simple and their parameters) and of adapt, by median; and
the fastest han variant over the fastest tuned algorithm. Failed and skipped
cases are left out; a family with none measured shows "-".
"""
import json
import sys


def family(case):
    alg = case["algorithm"]
    if alg == "default":
        return "default"
    if alg.startswith("han"):
        return "han"
    if alg == "adapt":
        return "adapt"
    return "tuned"


def label(case):
    params = case.get("params") or {}
    short = {"segment_size": "seg", "up_module": "up", "low_module": "low", "chain_fanout": "fanout"}
    text = ",".join(f"{short.get(k, k)}={int(v) if float(v).is_integer() else v}" for k, v in sorted(params.items()))
    return case["algorithm"] + (f"[{text}]" if text else "")


def size(b):
    for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return f"{b // n} {unit}"
    return f"{b} B"


def main():
    print("| placement | collective | size | default (ran) | fastest tuned | fastest han | adapt | han / tuned |")
    print("|---|---|---|---|---|---|---|---|")
    for arg in sys.argv[1:]:
        name, _, path = arg.partition("=")
        report = json.load(open(path, encoding="utf-8"))
        best = {}
        for c in report["cases"]:
            if c["status"] != "ok" or not c.get("timing"):
                continue
            key = (c["collective"], c["bytes"], family(c))
            if key not in best or c["timing"]["median_s"] < best[key]["timing"]["median_s"]:
                best[key] = c
        for coll, nbytes in sorted({(k[0], k[1]) for k in best}, key=lambda k: (k[0], k[1])):
            cells = []
            for fam in ("default", "tuned", "han", "adapt"):
                c = best.get((coll, nbytes, fam))
                if c is None:
                    cells.append("-")
                    continue
                us = c["timing"]["median_s"] * 1e6
                ran = (c.get("selection") or {}).get("actual", {}).get("algorithm")
                cells.append(f"{us:.1f} us ({ran})" if fam == "default" and ran else f"{label(c) if fam != 'default' else ''} {us:.1f} us".strip())
            han, tuned = best.get((coll, nbytes, "han")), best.get((coll, nbytes, "tuned"))
            ratio = f"{han['timing']['median_s'] / tuned['timing']['median_s']:.2f}" if han and tuned else "-"
            print(f"| {name} | {coll} | {size(nbytes)} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    main()
