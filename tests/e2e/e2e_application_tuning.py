#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

An application on MPICH, counted by MPICH's own app counter. Several runs
of one application experiment pooled into one report. Tuning for an application (docs/applications.md): pico's own small MPI
program run as an application experiment, the sweep of its call sites
(pico report --format sweep) run for real, and pico tune --for-application
weighing each choice by what the application's default spent at its sizes;
--min-saving putting back what does not pay.
"""

import json
import os
import re
import sys

from e2e import expect, expect_bad_input, pico, unwrapped, write
from e2e_applications import experiment

SRC = os.environ["PICO_SOURCE_DIR"]


def test_application_tuning(tmp):
    app = pico("run", experiment(tmp, "{name: again, env: {PICO_E2E_AGAIN: '1'}}", rounds=1), "-q",
               "--dir", os.path.join(tmp, "app"), cwd=tmp)
    expect(app.returncode == 0, f"exit {app.returncode}\n{app.stdout}\n{app.stderr[-3000:]}")
    app_dir = os.path.join(tmp, "app")
    sweep = pico("report", app_dir, "--format", "sweep")
    expect(sweep.returncode == 0, sweep.stderr)
    # Its 256 KiB allreduce at np 2, every algorithm, briefly (nothing here is timed against a bound).
    text = sweep.stdout.replace("time_budget: 100ms", "time_budget: 20ms").replace("min_iterations: 30",
                                                                                   "min_iterations: 10")
    run = pico("run", write(tmp, "sweep.yaml", text), "-q", "--dir", os.path.join(tmp, "sweep"), cwd=tmp)
    expect(run.returncode == 0, f"the sweep ran: {run.stdout}{run.stderr[-2000:]}")
    sweep_dir = os.path.join(tmp, "sweep")

    # --wide: every column, read by position below (in 100 columns one-value ones are said above the table).
    tuned = pico("tune", sweep_dir, "--for-application", app_dir, "-o", os.path.join(tmp, "p.json"), "--wide")
    expect(tuned.returncode == 0, tuned.stdout + tuned.stderr)
    expect(re.search(r"^for application '\S+' \(.*\), np 2: the profile at its default's call sites",
                     tuned.stdout, re.M), tuned.stdout)
    # The allreduce the application calls 20 times per launch is a row, with its calls and the default's time.
    row = re.search(r"^allreduce\s+2\s+256KiB\s+20\s+(\S+)\s+([0-9.e+-]+)\s+(.+?)\s{2,}(\S+)\s+(\S+)$",
                    tuned.stdout, re.M)
    expect(row and float(row.group(2)) > 0, f"the 256 KiB allreduce row: {tuned.stdout}")
    expect(re.search(r"^predicted: [0-9.e+-]+ s saved of the default's [0-9.e+-]+ s in collectives", tuned.stdout,
                     re.M), tuned.stdout)

    # A bar no choice clears: every chosen range is put back, the profile written changes nothing.
    strict = pico("tune", sweep_dir, "--for-application", app_dir, "--min-saving", "1000s",
                  "-o", os.path.join(tmp, "strict.json"), "--wide")
    expect(strict.returncode == 0, strict.stdout + strict.stderr)
    profile = json.load(open(os.path.join(tmp, "strict.json"), encoding="utf-8"))
    chosen = [r["algorithm"] for rule in profile["rules"] for r in rule["ranges"] if r["algorithm"] != "default"]
    expect(chosen == [], f"nothing clears 1000 s per launch: {chosen}")
    loose = json.load(open(os.path.join(tmp, "p.json"), encoding="utf-8"))
    before = [r for rule in loose["rules"] for r in rule["ranges"] if r["algorithm"] != "default"]
    expect(len(re.findall(r"kept at the default: saves the application", strict.stdout)) == len(before),
           f"one line per range put back ({len(before)}): {strict.stdout}")

    expect_bad_input(r"--min-saving: --min-saving weighs choices by an application's calls, and none was given",
                     "tune", sweep_dir, "--min-saving", "1ms")
    expect_bad_input(r"--min-saving: bad duration 'soon'", "tune", sweep_dir, "--for-application", app_dir,
                     "--min-saving", "soon")
    expect_bad_input(r": not an application run", "tune", sweep_dir, "--for-application", sweep_dir)


def test_application_pooled(tmp):
    # Two runs of one experiment, 2 rounds each: one report of 4 paired rounds, the same verdict rule.
    path = experiment(tmp, "{name: again, env: {PICO_E2E_AGAIN: '1'}}", rounds=2)
    dirs = []
    for k in range(2):
        d = os.path.join(tmp, f"run{k}")
        proc = pico("run", path, "-q", "--dir", d, cwd=tmp)
        expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}")
        dirs.append(d)
    pooled = pico("report", *dirs, "--format", "json")
    expect(pooled.returncode == 0, pooled.stderr)
    report = json.loads(pooled.stdout)
    expect(report["rounds"] == 4 and report["launches_run"] == 8 and report["pooled_from"] == dirs,
           f"rounds {report['rounds']}, launches {report['launches_run']}, from {report.get('pooled_from')}")
    again = next(v for v in report["processes"][0]["variants"] if v["variant"] == "again")
    expect(again["speedup"]["paired_rounds"] == 4 and len(again["value_by_round"]) == 4, again["speedup"])
    # Each run's own rounds are the pooled report's, in order: the first run's, then the second's.
    singles = [json.loads(pico("report", d, "--format", "json").stdout) for d in dirs]
    values = [x for s in singles for x in next(v for v in s["processes"][0]["variants"]
                                               if v["variant"] == "again")["value_by_round"]]
    expect(values == again["value_by_round"], f"{values} vs {again['value_by_round']}")
    table = pico("report", *dirs)
    expect(table.returncode == 0 and "4 round(s)" in table.stdout
           and "pooled from 2 runs of the experiment" in table.stdout, table.stdout)
    # Another experiment's run is refused, naming what differs; so is a sweep's report beside them.
    other = experiment(tmp, "{name: forced, algorithms: {allreduce: ring}}", rounds=2)
    d = os.path.join(tmp, "other")
    expect(pico("run", other, "-q", "--dir", d, cwd=tmp).returncode == 0, "the other experiment ran")
    expect_bad_input(r"other: is not a run of the same experiment as \S+run0: they differ in variants", "report",
                     dirs[0], d)
    expect_bad_input(r": is no application run, and the first report given is one", "report", dirs[0], tmp)


def test_application_mpich(tmp):
    # MPICH has no interposer: its counter counts the calls and their time, and what ran inside them is
    # what the variant's variables select, said as such; a forced collective's sites count as changed.
    build = os.path.dirname(os.path.abspath(os.environ["PICO"]))
    app = os.path.join(build, "pico-collective-app-mpich")
    if not os.path.exists(app) or not os.path.exists(os.path.join(build, "libpico-app-counter-mpich.so")):
        print("SKIP: no MPICH build of the test application and counter (MPICH not installed)")
        sys.exit(77)
    path = experiment(tmp, "{name: rsag, algorithms: {allreduce: reduce_scatter_allgather}}", rounds=2,
                      command=f'[{app}, "262144", "1024", "20"]')
    proc = pico("run", path, "-p", os.path.join(SRC, "platforms", "local-mpich.yaml"), "--dir",
                os.path.join(tmp, "r"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}")
    report = json.load(open(os.path.join(tmp, "r", "report.json"), encoding="utf-8"))
    expect(report["mpi"]["library"] == "mpich", report["mpi"])
    variants = {v["variant"]: v for v in report["processes"][0]["variants"]}
    for name in ("default", "rsag"):
        rows = [c for c in variants[name]["calls"] if c["collective"] == "allreduce" and c["bytes"] == 262144]
        expect(len(rows) == 1 and rows[0]["calls"] == 20 and rows[0]["seconds"] > 0, f"{name}: {rows}")
        expect(list(rows[0]["ran"]) == ["unknown (no interposer)"], rows[0]["ran"])
    rsag = variants["rsag"]
    allreduce = next(c for c in rsag["calls"] if c["collective"] == "allreduce")
    bcast = next(c for c in rsag["calls"] if c["collective"] == "bcast")
    expect(allreduce["changed"] and not bcast["changed"], f"forced allreduce changed, bcast not: {rsag['calls']}")
    expect(rsag["changed_share"] > 0 and rsag["selected_by"]["MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"] ==
           "reduce_scatter_allgather", rsag.get("selected_by"))
    expect(re.search(r"^rsag: what ran inside the calls is what these variables select .*"
                     r"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=reduce_scatter_allgather", unwrapped(proc.stdout), re.M),
           proc.stdout)
