#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of a library's components side by side, from pico reports
(configs/examples/hierarchical-components.yaml, mpich-compositions.yaml;
docs/benchmarks.md).

usage: scripts/component_table.py LABEL=REPORT.json [LABEL=REPORT.json ...]

Per collective and size, for each report, by median: the library default
(and what the interposer saw it run), then
- Open MPI: the fastest of coll/tuned's algorithms, of han's variants (han,
  han_simple and their parameters) and of adapt; han's over tuned's;
- MPICH: the fastest MPIR algorithm (run flat) and each ch4 composition;
  the fastest composition over the fastest MPIR algorithm.
Failed and skipped cases are left out; a family with none measured shows "-".
All reports of one table are of one library.
"""
import json
import sys

# Per library: the columns after the default, and (component, baseline) for the ratio.
COLUMNS = {
    "openmpi": (["tuned", "han", "adapt"], ("han", "tuned"), "fastest tuned | fastest han | adapt | han / tuned"),
    "mpich": (["mpir", "composition_alpha", "composition_beta", "composition_gamma"],
              ("composition", "mpir"), "fastest MPIR | alpha | beta | gamma | composition / MPIR"),
}


def family(case):
    alg = case["algorithm"]
    if alg == "default" or alg.startswith("composition_") or alg == "adapt":
        return alg
    if alg.startswith("han"):
        return "han"
    return "mpir" if case["library"] == "mpich" else "tuned"


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
    reports = [(arg.partition("=")[0], json.load(open(arg.partition("=")[2], encoding="utf-8")))
               for arg in sys.argv[1:]]
    library = reports[0][1]["run"]["mpi_target"]["library"]
    families, (component, baseline), header = COLUMNS[library]
    print(f"| placement | collective | size | default (ran) | {header} |")
    print("|---" * (5 + len(families)) + "|")
    for name, report in reports:
        best = {}
        for c in report["cases"]:
            if c["status"] != "ok" or not c.get("timing"):
                continue
            for fam in {family(c), "composition" if family(c).startswith("composition_") else None} - {None}:
                key = (c["collective"], c["bytes"], fam)
                if key not in best or c["timing"]["median_s"] < best[key]["timing"]["median_s"]:
                    best[key] = c
        for coll, nbytes in sorted({(k[0], k[1]) for k in best}, key=lambda k: (k[0], k[1])):
            cells = []
            for fam in ["default"] + families:
                c = best.get((coll, nbytes, fam))
                if c is None:
                    cells.append("-")
                    continue
                us = c["timing"]["median_s"] * 1e6
                ran = (c.get("selection") or {}).get("actual", {}).get("algorithm")
                shown = fam == "default" or fam.startswith("composition_")
                cells.append(f"{us:.1f} us ({ran})" if fam == "default" and ran else
                             f"{'' if shown else label(c)} {us:.1f} us".strip())
            top, base = best.get((coll, nbytes, component)), best.get((coll, nbytes, baseline))
            ratio = f"{top['timing']['median_s'] / base['timing']['median_s']:.2f}" if top and base else "-"
            print(f"| {name} | {coll} | {size(nbytes)} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    main()
