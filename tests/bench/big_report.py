#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes a synthetic report.json of N cases (default 10,000) for timing
`pico report --format html` on a large sweep (docs/benchmarks.md#html-report).

usage: big_report.py OUT.json [N]

The cases sweep 4 collectives x 8 process counts x 10 algorithms x the sizes
needed to reach N (8 B doubling), with a default algorithm in each size, a few
failed and skipped cases, and phases on a tenth of them: the shape of a real
`pico run` of an Open MPI catalogue, not its numbers.
"""
import json
import math
import os
import random
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def case(index, collective, algorithm, np, size, rng):
    median = 2e-6 + size / 5e9 * (1 + 0.3 * rng.random()) * math.log2(np + 1)
    ok = rng.random() > 0.02
    skipped = not ok and rng.random() < 0.5
    c = {"case_id": f"{index:016x}", "index": index, "backend": "mpi", "library": "openmpi",
         "collective": collective, "algorithm": algorithm, "dtype": "float32",
         "op": "sum" if collective in ("allreduce", "reduce") else "none", "count": max(size // 4, 1), "bytes": size,
         "np": np, "in_place": False, "mode": "latency", "root": 0, "params": {},
         "selection": {"mechanism": "mpi_t", "variable": "v", "value": "0", "readback": "", "parameters": {},
                       "fallback": ""},
         "status": "ok" if ok else "skipped" if skipped else "failed",
         "reason": "" if ok else "skipped at plan time" if skipped else "crash: the worker died during this case",
         "iterations": 100 if ok else 0, "warmup": 5, "stop_reason": "target_ci" if ok else "",
         "timing": None, "algbw_GBps": None, "busbw_GBps": None,
         "validation": {"status": "passed" if ok else "skipped", "mismatches": 0},
         "elapsed_s": median * 110 if ok else 0, "launch": 0 if ok else -1}
    if ok:
        c["timing"] = {"min_s": median * 0.9, "median_s": median, "mean_s": median * 1.02, "max_s": median * 2,
                       "p5_s": median * 0.92, "p95_s": median * 1.2, "p99_s": median * 1.5, "stddev_s": median * 0.05,
                       "cv": 0.05, "ci95_low_s": median * 0.98, "ci95_high_s": median * 1.02}
        c["algbw_GBps"] = size / median / 1e9
        c["busbw_GBps"] = c["algbw_GBps"] * 2 * (np - 1) / np
        if index % 10 == 0:
            c["phases"] = [{"name": "reduce_scatter", "time_s": median * 0.5, "counters": {}},
                           {"name": "allgather", "time_s": median * 0.5, "counters": {}}]
    return c


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    rng = random.Random(19)
    collectives = ["allreduce", "bcast", "reduce", "allgather"]
    nps = [2, 4, 8, 16, 32, 64, 128, 256]
    algorithms = ["default"] + [f"algorithm_{k}" for k in range(1, 10)]
    per_size = len(collectives) * len(nps) * len(algorithms)
    sizes = [8 << k for k in range(math.ceil(n / per_size))]
    cases = []
    for collective in collectives:
        for np in nps:
            for size in sizes:
                for algorithm in algorithms:
                    if len(cases) < n:
                        cases.append(case(len(cases), collective, algorithm, np, size, rng))
    with open(os.path.join(SRC, "tests", "data", "report-example.json"), encoding="utf-8") as f:
        report = json.load(f)
    report["cases"] = cases
    report["experiment"]["name"] = f"synthetic-{n}"
    with open(out, "w", encoding="utf-8") as f:
        json.dump(report, f)
    print(f"{out}: {len(cases)} cases")


if __name__ == "__main__":
    main()
