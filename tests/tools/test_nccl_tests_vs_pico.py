#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/nccl-tests-vs-pico.py on real outputs of one H200 run
(tests/data/nccl-tests): the per-size best rounds and ratios it prints and
writes, its exit status, and its errors; and the pico report those came from
against docs/report.schema.json (a report the GPU path wrote, timing_method
and calls_per_sample included).

    test_nccl_tests_vs_pico.py SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

source = sys.argv[1]
data = os.path.join(source, "tests", "data", "nccl-tests")
script = os.path.join(source, "scripts", "nccl-tests-vs-pico.py")
rounds = [os.path.join(data, f"all_reduce_perf-h200-round{r}.txt") for r in (1, 2)]
report = os.path.join(data, "pico-allreduce-rotate-h200.json")
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def out_of_place_us(path):
    """nccl-tests' out-of-place time per size, read independently of the script."""
    times = {}
    for line in open(path, encoding="utf-8"):
        fields = line.split()
        if len(fields) >= 13 and fields[0].isdigit():
            times[int(fields[0])] = float(fields[5])
    return times


with tempfile.TemporaryDirectory() as tmp:
    ratios = os.path.join(tmp, "ratios.json")
    proc = run("--nccl-tests", *rounds, "--pico", report, "--json", ratios, "--band", "0.95:1.05")
    # Launch-bound small sizes fall outside the band on this data: exit 1, the table printed.
    expect(proc.returncode == 1, f"exit {proc.returncode}, expected 1: {proc.stderr}")
    expect("on NVIDIA H200" in proc.stdout and "2 rounds" in proc.stdout, proc.stdout[:300])
    result = json.load(open(ratios))
    sizes = {s["bytes"]: s for s in result["sizes"]}
    expect(len(sizes) == 28 and min(sizes) == 8 and max(sizes) == 1 << 30, sorted(sizes))
    expect(result["pico_method"] == "batch of 20", result["pico_method"])
    theirs = [out_of_place_us(path) for path in rounds]
    cases = {c["bytes"]: c["timing"]["median_s"] for c in json.load(open(report))["cases"]
             if c["status"] == "ok" and not c["in_place"]}
    for size, row in sizes.items():
        best = min(t[size] for t in theirs) * 1e-6
        expect(abs(row["ratio"] - cases[size] / best) < 1e-9, f"{size}: {row}")
    # Bandwidth-bound sizes agree within 2% on this run; the printed row says so.
    expect(0.98 <= sizes[1 << 30]["ratio"] <= 1.02, str(sizes[1 << 30]))
    row = re.search(r"^\s+1073741824\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", proc.stdout, re.M)
    expect(row and abs(float(row.group(5)) - sizes[1 << 30]["ratio"]) < 1e-3, proc.stdout[-400:])
    expect(re.search(r"^\d+ of 28 sizes within 0.95-1.05$", proc.stdout, re.M), proc.stdout[-200:])

    # A band that holds every size: exit 0.
    expect(run("--nccl-tests", *rounds, "--pico", report, "--band", "0.1:10").returncode == 0, "wide band")
    # Bad input: exit 2 with the file named.
    bad = run("--nccl-tests", report, "--pico", report)
    expect(bad.returncode == 2 and "no result lines" in bad.stderr, bad.stderr)
    bad = run("--nccl-tests", *rounds, "--pico", os.path.join(tmp, "missing.json"))
    expect(bad.returncode == 2 and "missing.json" in bad.stderr, bad.stderr)
    bad = run("--nccl-tests", *rounds, "--pico", report, "--band", "wide")
    expect(bad.returncode == 2 and "--band" in bad.stderr, bad.stderr)

schema = subprocess.run([sys.executable, os.path.join(source, "tests", "tools", "check_report.py"),
                         os.path.join(source, "docs", "report.schema.json"), report],
                        capture_output=True, text=True)
expect(schema.returncode == 0, schema.stdout + schema.stderr)
methods = {(c.get("timing_method"), c.get("calls_per_sample")) for c in json.load(open(report))["cases"]}
expect(methods == {("batch", 20)}, str(methods))

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
