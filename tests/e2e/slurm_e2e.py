#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests of Slurm platforms on this machine's own Slurm.

usage: slurm_e2e.py TEST   (PICO, PICO_SOURCE_DIR as for e2e.py)

Each test starts the single-node Slurm with scripts/local-slurm.sh (idempotent)
and exits 77 (skipped) only when that cannot be done: not root, Slurm or munge
not installed, or the daemons do not come up.
"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (FAST_TIMING, PLAN_ORDER_TIMING, SRC, check_schema, dry_run_cases, expect, json_lines,  # noqa: E402
                 load, pico, report_path, run_named, wait_until, write)

LOCAL_SLURM = os.path.join(SRC, "scripts", "local-slurm.sh")
SKIP = 77


class Skip(Exception):
    pass


def start_slurm():
    if os.geteuid() != 0:
        raise Skip("the local Slurm needs root")
    proc = subprocess.run([LOCAL_SLURM, "start"], capture_output=True, text=True, timeout=120)
    m = re.search(r"export SLURM_CONF=(\S+)", proc.stdout)
    if proc.returncode != 0 or not m:
        raise Skip(f"local Slurm did not start:\n{proc.stdout}{proc.stderr}")
    os.environ["SLURM_CONF"] = m.group(1)


def slurm(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=60)


def job_field(job_id, key):
    """A field of `scontrol show job` (multi-line form: JobName and Comment end their lines)."""
    out = slurm("scontrol", "show", "job", job_id).stdout
    m = re.search(rf"(?:^|\s){key}=(.*)$", out, re.M)
    expect(m, f"no {key} in scontrol output:\n{out}")
    value = m.group(1)
    # JobName and Comment end their lines (scontrol writes one space after Comment);
    # other fields may be followed by more Key=Value pairs.
    if key == "Comment" and value.endswith(" "):
        return value[:-1]
    return value if key == "JobName" else value.split(" ")[0]


def ok_records_per_case(results_dir):
    counts = {}
    with open(os.path.join(results_dir, "cases.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = __import__("json").loads(line)
            if r["status"] == "ok":
                counts[r["case_id"]] = counts.get(r["case_id"], 0) + 1
    return counts


def test_quickstart(tmp):
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    planned = len(dry_run_cases(quickstart, "-p", "local-slurm", cwd=SRC))
    start = time.monotonic()
    proc = pico("run", quickstart, "-p", "local-slurm", "-o", os.path.join(tmp, "results"), cwd=SRC)
    elapsed = time.monotonic() - start
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path, "--expect-status", "ok", "--expect-cases", str(planned))
    report = load(path)
    job = report["provenance"]["slurm"]
    expect(re.fullmatch(r"\d+", job["job_id"]), f"job id recorded: {job}")
    expect(job["state"] == "COMPLETED", f"job state: {job['state']}")
    host = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip()
    expect(job["node_list"] == host and job["nodes"] == 1, f"node list and allocation: {job}")
    expect(job_field(job["job_id"], "JobName") == "pico-quickstart", "job name")
    results_dir = os.path.dirname(path)
    script = open(os.path.join(results_dir, "job.sbatch"), encoding="utf-8").read()
    # A word wider than a line (a long results path) has a line of its own.
    wide = [line for line in script.splitlines() if len(line) > 100 and len(line.rstrip(" \\").split()) > 1]
    expect(not wide, f"job script lines within 100 columns: {wide}")
    script = script.replace(" \\\n    ", " ")  # a step's command, continued over lines, as bash reads it
    expect("#SBATCH --signal=B:USR1@30" in script and "run_step 0 " in script and "srun --nodes=1 --ntasks=2" in script,
           "job script with one srun step")
    expect(report["run"]["launches"] == 1 and report["provenance"]["launch_commands"][0][0] == "srun", "one srun step")
    expect("SLURM_JOB_ID" in report["provenance"]["env"], "the worker ran inside the job")
    expect(f"job: {job['job_id']} COMPLETED" in proc.stdout, "job shown to the user")
    print(f"quickstart on local Slurm: {elapsed:.1f} s")


def test_cancel_resume(tmp):
    start_dir = os.path.join(tmp, "results")
    exp = write(tmp, "sweep.yaml", """\
        name: slow-sweep
        collectives: [allreduce, bcast]
        sizes: {from: 8B, to: 8KiB, factor: 2}
        processes: [2]
        timing: {warmup: 1, min_iterations: 3, max_iterations: 100000, time_budget: 300ms, target_ci: 0.01%, case_timeout: 60s}
        """)
    proc = pico("run", exp, "-p", "local-slurm", "--dir", start_dir, "--no-wait", cwd=SRC)
    expect(proc.returncode == 0, f"--no-wait: exit {proc.returncode}\n{proc.stderr}")
    m = re.search(r"^job: (\d+) SUBMITTED$", proc.stdout, re.M)
    expect(m, f"job id printed: {proc.stdout}")
    job_id = m.group(1)
    cases_file = os.path.join(start_dir, "cases.jsonl")
    wait_until(lambda: len(json_lines(cases_file)) >= 3, f"job {job_id} finished 3 cases", interval=0.2)
    expect(slurm("scancel", job_id).returncode == 0, "scancel")
    collected = pico("collect", start_dir, cwd=SRC)
    expect(collected.returncode == 1, f"collect after scancel: exit {collected.returncode}\n{collected.stderr}")
    check_schema(report_path(collected))
    report = load(report_path(collected))
    total = len(report["cases"])
    expect(total == 22, f"22 planned cases, got {total}")
    done = {c["case_id"] for c in report["cases"] if c["status"] == "ok"}
    unfinished = [c for c in report["cases"] if c["status"] != "ok"]
    expect(3 <= len(done) < total, f"{len(done)} cases finished before scancel")
    for c in unfinished:
        expect(c["status"] == "failed" and ("CANCELLED" in c["reason"] or "cancelled" in c["reason"]),
               f"unfinished case says why: {c['reason']}")
    expect(report["provenance"]["slurm"]["state"] == "CANCELLED", "job state recorded")

    resumed = pico("run", "--resume", start_dir, cwd=SRC)
    expect(resumed.returncode == 0, f"resume: exit {resumed.returncode}\n{resumed.stderr[-3000:]}")
    check_schema(report_path(resumed), "--expect-status", "ok", "--expect-cases", str(total))
    final = load(report_path(resumed))
    expect(len(final["provenance"]["slurm"]["jobs"]) == 2 and final["provenance"]["slurm"]["jobs"][0] == job_id,
           f"both jobs recorded: {final['provenance']['slurm']}")
    counts = ok_records_per_case(start_dir)
    expect(set(counts) == {c["case_id"] for c in final["cases"]}, "every case ok")
    expect(all(n == 1 for n in counts.values()), f"no case measured twice: {[k for k, n in counts.items() if n > 1]}")
    expect(os.path.exists(os.path.join(start_dir, "job-1.sbatch")), "the resume job has its own script")
    again = pico("run", "--resume", start_dir, cwd=SRC)
    expect(again.returncode == 0 and "already ok" in again.stderr, f"nothing left: {again.stderr}")


def test_crash(tmp):
    # np=1 then np=2, each step: an mpi case, then a case whose rank segfaults. The crash
    # ends its step; the next step still runs.
    exp = write(tmp, "crash.yaml", """\
        collectives: [allreduce]
        sizes: [64B, 1KiB]
        backends:
          - {library: mpi}
          - {library: fault, algorithms: [crash]}
        processes: [1, 2]
        """ + PLAN_ORDER_TIMING)  # plan order: the cases after a crash are known
    proc = pico("run", exp, "-p", "local-slurm", "-o", os.path.join(tmp, "results"), cwd=SRC,
                env={"PICO_ENABLE_TEST_BACKENDS": "1"})
    expect(proc.returncode == 1, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    check_schema(report_path(proc))
    report = load(report_path(proc))
    for np in (1, 2):
        mpi = [c for c in report["cases"] if c["np"] == np and c["backend"] == "mpi"]
        fault = [c for c in report["cases"] if c["np"] == np and c["backend"] == "fault"]
        expect([c["status"] for c in mpi] == ["ok", "ok"], f"np={np}: cases before the crash kept")
        expect(fault[0]["status"] == "failed" and fault[0]["reason"].startswith("crash: the worker died during this case"),
               f"np={np}: crashed case: {fault[0]['reason']}")
        expect("Segmentation fault" in fault[0]["reason"] and "job step exit code" in fault[0]["reason"],
               f"np={np}: the crash is described: {fault[0]['reason']}")
        expect(fault[1]["status"] == "failed" and fault[1]["reason"].startswith("not run: job step"),
               f"np={np}: the case after the crash: {fault[1]['reason']}")
    expect(report["run"]["launches"] == 2, "one step per process count")


def test_time_limit(tmp):
    # A case that hangs in a job with a one-minute limit: USR1 comes before the limit, the
    # script stops the step; the finished cases stay, the rest say why. Slurm sends the
    # warning "up to 60 seconds earlier than specified" (sbatch(1), --signal), so on a
    # one-minute job it may come at any moment from the start: before, during or after the
    # two quick cases. Whenever it comes, the cases are a run of finished ones, then at most
    # one interrupted, then cases not run, and the hanging case never finishes. The warning,
    # not the limit, stopped it: the job script recorded the stop as the time limit's, and
    # Slurm never had to end the job (TIMEOUT).
    platform = write(tmp, "short.yaml", """\
        name: short
        scheduler: slurm
        slurm: {partition: debug, time: "1", nodes: 1, ntasks_per_node: 2, signal_before_limit: 50}
        launcher: {kind: srun}
        mpi: {library: openmpi}
        """)
    exp = write(tmp, "hang.yaml", """\
        collectives: [allreduce]
        sizes: [8B, 64B]
        processes: [2]
        backends:
          - {library: mpi}
          - {library: fault, algorithms: [hang]}
        timing: {warmup: 1, min_iterations: 3, max_iterations: 50, time_budget: 20ms, case_timeout: 600s, rounds: 1}
        """)
    start = time.monotonic()
    proc = pico("run", exp, "-p", platform, "-o", os.path.join(tmp, "results"), cwd=SRC,
                env={"PICO_ENABLE_TEST_BACKENDS": "1"})
    elapsed = time.monotonic() - start
    expect(proc.returncode == 1, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    check_schema(report_path(proc))
    report = load(report_path(proc))
    steps = json_lines(os.path.join(os.path.dirname(report_path(proc)), "steps.jsonl"))
    expect(steps and all(s["stopped"] == "time_limit" for s in steps), f"the steps' stop reasons: {steps}")
    job = report["provenance"]["slurm"]
    expect(job["state"] != "TIMEOUT", f"Slurm ended the job at its limit: {job}")
    cases = report["cases"]
    described = "\n".join(f"  {c['backend']}: {c['status']} {c.get('reason', '')}" for c in cases)
    expect([c["backend"] for c in cases] == ["mpi", "mpi", "fault", "fault"], described)
    finished = 0
    while finished < len(cases) and cases[finished]["status"] == "ok":
        finished += 1
    expect(finished <= 2, f"the hanging case cannot finish:\n{described}")
    stopped = cases[finished:]
    expect(all(c["status"] == "failed" and "was stopped before its time limit" in c["reason"] for c in stopped),
           f"every case not finished names the time limit:\n{described}")
    kinds = [c["reason"].split(":")[0] for c in stopped]
    expect(kinds in (["interrupted"] + ["not run"] * (len(stopped) - 1), ["not run"] * len(stopped)),
           f"at most one case interrupted, and the rest not run:\n{described}")
    expect(report["run"]["interrupted"] is True, "the stop is recorded")
    print(f"stopped by the time-limit warning after {elapsed:.1f} s with {finished} case(s) finished:\n{described}")


HOSTILE = """a'b"c;$(touch PWNED1) `touch PWNED2` \\d #e"""


def test_hostile_values(tmp):
    yaml_value = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
    platform = write(tmp, "hostile.yaml", f"""\
        name: hostile
        scheduler: slurm
        slurm:
          partition: debug
          time: "00:05:00"
          nodes: 1
          ntasks_per_node: 2
          job_name: "{yaml_value}"
          comment: "{yaml_value}"
        launcher: {{kind: srun}}
        mpi: {{library: openmpi}}
        env: {{PICO_HOSTILE: "{yaml_value}"}}
        """)
    exp = write(tmp, "tiny.yaml", "collectives: [allreduce]\nsizes: [8B]\nprocesses: [2]\n" + FAST_TIMING)
    proc = pico("run", exp, "-p", platform, "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    report = load(report_path(proc))
    job_id = report["provenance"]["slurm"]["job_id"]
    expect(job_field(job_id, "JobName") == HOSTILE, f"job name literal: {job_field(job_id, 'JobName')!r}")
    expect(job_field(job_id, "Comment") == HOSTILE, f"comment literal: {job_field(job_id, 'Comment')!r}")
    expect(report["provenance"]["env"].get("PICO_HOSTILE") == HOSTILE,
           f"env literal inside the job: {report['provenance']['env'].get('PICO_HOSTILE')!r}")
    for root in (tmp, os.path.dirname(report_path(proc)), SRC):
        for name in ("PWNED1", "PWNED2"):
            expect(not os.path.exists(os.path.join(root, name)), f"{name} created in {root}: a value ran as a command")
    # What cannot be written literally is refused before anything is submitted.
    bad = write(tmp, "newline.yaml", """\
        name: newline
        scheduler: slurm
        slurm:
          comment: "one\\n#SBATCH --partition=other"
        """)
    refused = pico("validate", bad)
    expect(refused.returncode == 2 and "newline.yaml:4:" in refused.stderr and "line break" in refused.stderr,
           f"newline refused at its place: {refused.stderr}")
    too_big = pico("run", exp, "-p", "local-slurm", "--np", "3", "-o", os.path.join(tmp, "r2"), cwd=SRC)
    expect(too_big.returncode == 2 and "process count 3 needs 2 node(s)" in too_big.stderr,
           f"np beyond the allocation is bad input: {too_big.stderr}")


def main():
    name = sys.argv[1]

    def slurm_up():
        try:
            start_slurm()
        except Skip as e:
            print(f"SKIP {name}: {e}")
            return SKIP
        return None

    return run_named(globals(), name, "pico-slurm", slurm_up)


if __name__ == "__main__":
    sys.exit(main())
