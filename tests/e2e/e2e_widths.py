#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Every table and line pico prints fits 100 columns unless --wide (issue 65:
run tables of 128-220 columns, compare over 170, tune --check 141, warnings
of 243): over real runs with every algorithm of three collectives (long
parameterised names, cases skipped at plan time, alltoallv's default
"default (counts uniform) (ran pairwise)"), a case that fails its
validation, a tuned profile loaded, an application run with a long variant
name, and the views of each; and the dry run of every example experiment.
"""

import glob
import os
import re

from e2e import FAST_TIMING, SRC, TEST_BACKENDS, case_rows, expect, pico, report_path, run_experiment, unfolded, write
from e2e_applications import experiment

WIDTH = 100
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SWEEP = """\
    collectives: [allreduce, bcast, alltoallv]
    sizes: [8B, 4KiB]
    processes: [2]
    backends:
      - {library: mpi, algorithms: all}
      - {library: fault, algorithms: [corrupt]}
    """


def widest(text):
    return max((len(ANSI.sub("", line)) for line in text.splitlines()), default=0)


def too_wide(line):
    """Over WIDTH columns, but for a path: printed whole ("report: PATH", a directory of the temporary one
    here), so a line of little else but a path may be longer."""
    line = ANSI.sub("", line)
    longest = max(line.split(), key=len, default="")
    return len(line) > WIDTH and not ("/" in longest and len(line) - len(longest) <= 40)


def expect_fits(what, proc, exit_codes=(0,)):
    expect(proc.returncode in exit_codes, f"{what}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    for stream, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        over = [line for line in text.splitlines() if too_wide(line)]
        expect(not over, f"{what}: {len(over)} line(s) of {stream} over {WIDTH} columns, the widest "
                         f"{widest(text)}:\n" + "\n".join(over[:5]))
    return proc


def sweep(tmp, name, *extra, algorithms="all"):
    directory = os.path.join(tmp, name)
    os.makedirs(directory)
    text = SWEEP.replace("algorithms: all", f"algorithms: {algorithms}")
    if algorithms != "all":
        text = text.replace("      - {library: fault, algorithms: [corrupt]}\n", "")
    proc = run_experiment(directory, text, *extra, env=TEST_BACKENDS,
                          timing=FAST_TIMING.replace("}", ", keep_samples: true}"))
    # The corrupt case fails its validation: exit 1 with its report written.
    expect_fits(f"run {name}", proc, exit_codes=(0, 1) if algorithms == "all" else (0,))
    return os.path.dirname(report_path(proc))


def test_table_widths(tmp):
    a = sweep(tmp, "a")
    b = sweep(tmp, "b")
    wide = pico("report", a, "--wide")
    # Without fitting these tables are wider, so the checks below hold only because they are fitted.
    expect(wide.returncode == 0 and widest(wide.stdout) > WIDTH, f"--wide: {widest(wide.stdout)} columns")
    expect(re.search(r"^not shown in 100 columns \(--wide shows them\): ", pico("report", a).stdout, re.M),
           "the fitted table names what it leaves out")
    expect_fits("report table", pico("report", a))
    expect_fits("report term", pico("report", a, "--format", "term", env={"COLUMNS": str(WIDTH)}))
    expect_fits("report A B table", pico("report", a, b))
    expect_fits("report A B term", pico("report", a, b, "--format", "term", env={"COLUMNS": str(WIDTH)}))
    expect_fits("compare", pico("compare", a, b))
    expect_fits("compare --best", pico("compare", a, b, "--best"))
    profile = os.path.join(tmp, "profile.json")
    expect_fits("tune", pico("tune", a, "-o", profile))
    expect_fits("tune stdout only", pico("tune", a))
    tuned = sweep(tmp, "tuned", "--profile", profile, algorithms="[default]")
    # tune --check exits 1 where a changed size is slower beyond the noise; its table fits either way.
    expect_fits("tune --check", pico("tune", "--check", a, tuned, "--profile", profile), exit_codes=(0, 1))
    expect_fits("bench", pico("bench", "allreduce", "--sizes", "8B,4KiB", "--time-budget", "10ms",
                              "-o", os.path.join(tmp, "bench")))

    # An application run: its variant table and notes, the calls it changed.
    app_dir = os.path.join(tmp, "app")
    os.makedirs(app_dir)
    app = experiment(app_dir, """\
        {name: default}
        {name: ring_for_every_allreduce_of_the_application, algorithms: {allreduce: ring}}""", rounds=2)
    ran = expect_fits("application run", pico("run", app, "-o", os.path.join(app_dir, "results"), cwd=app_dir))
    run_dir = os.path.dirname(report_path(ran))
    expect_fits("application report", pico("report", run_dir))
    expect_fits("application term", pico("report", run_dir, "--format", "term", env={"COLUMNS": str(WIDTH)}))
    expect_fits("tune --for-application", pico("tune", a, "--for-application", run_dir))


def test_dry_run_widths(tmp):
    # Issue 65: `pico run --dry-run` printed a case table of 103-182 columns, skip reasons of up to 375 and launch
    # commands of 191. Every example experiment's dry run, each line of it in 100 columns unless --wide.
    examples = sorted(glob.glob(os.path.join(SRC, "configs", "examples", "*.yaml")))
    examples.append(os.path.join(SRC, "configs", "quickstart.yaml"))
    results = os.path.join(tmp, "results")
    widest_wide = 0
    for path in examples:
        name = os.path.basename(path)
        fitted = expect_fits(f"dry run of {name}", pico("run", path, "--dry-run", "-o", results, cwd=tmp))
        wide = pico("run", path, "--dry-run", "--wide", "-o", results, cwd=tmp)
        expect(wide.returncode == 0, f"{name} --wide: exit {wide.returncode}\n{wide.stderr[-2000:]}")
        widest_wide = max(widest_wide, widest(wide.stdout))
        # Nothing lost: every case is a row of both, no algorithm cut ("mpi/split_bin.."; the parameters' initials
        # are said under the table), and the fitted commands, joined, are --wide's.
        rows = case_rows(fitted.stdout)
        expect(len(rows) == len(case_rows(wide.stdout)), f"{name}: rows differ")
        cut = [row for row in rows if any(".." in cell for cell in row)]
        expect(not cut, f"{name}: {len(cut)} rows cut, such as {cut[:2]}")
        commands = [line for line in wide.stdout.splitlines() if line.startswith("  [")]
        expect(commands == [line for line in unfolded(fitted.stdout).splitlines() if line.startswith("  [")],
               f"{name}: the fitted launch commands are not --wide's:\n" + "\n".join(commands))
    # Without fitting these are wider, so the checks above hold only because they are fitted.
    expect(widest_wide > WIDTH, f"--wide: {widest_wide} columns")
    # An application experiment's dry run: its variants' commands (328 columns) and the launch order.
    app_dir = os.path.join(tmp, "app")
    os.makedirs(app_dir)
    app = experiment(app_dir, """\
        {name: default}
        {name: ring_for_every_allreduce_of_the_application, algorithms: {allreduce: ring}}""")
    fitted = expect_fits("application dry run", pico("run", app, "--dry-run", cwd=app_dir))
    wide = pico("run", app, "--dry-run", "--wide", cwd=app_dir)
    expect(wide.returncode == 0 and widest(wide.stdout) > WIDTH, f"application --wide: {widest(wide.stdout)} columns")
    whole = [line for line in wide.stdout.splitlines() if "mpirun" in line]
    expect(whole and all(line in unfolded(fitted.stdout).splitlines() for line in whole),
           f"the fitted commands are not --wide's:\n{fitted.stdout}")
    # Ranks that would outnumber the cores are said before anything runs, in 100 columns too.
    crowded = write(tmp, "crowded.yaml", "collectives: [allreduce]\nsizes: [8B]\n")
    np = str(len(os.sched_getaffinity(0)) + 1)
    proc = expect_fits("crowded dry run", pico("run", crowded, "--dry-run", "--np", np, "-o", results, cwd=tmp))
    expect(re.search(rf"^pico: warning: oversubscribed \({np} ranks on host \S+ with \d+ cores\)", proc.stderr, re.M),
           f"no oversubscription warning:\n{proc.stderr}")
    expect(not os.path.exists(results), "a dry run wrote results")
