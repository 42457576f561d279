#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

What failures leave: corrupt output, crashed, hung and interrupted workers,
orphans, a broken pipe, a locked or full results directory.
"""

import os
import re
import signal
import subprocess
import textwrap
import time

from e2e import (
    PICO,
    PLAN_ORDER_TIMING,
    TEST_BACKENDS,
    cases_by,
    check_schema,
    checked_report,
    expect,
    expect_bad_input,
    json_lines,
    load,
    pico,
    report_path,
    run_experiment,
    wait_until,
    write,
)


def test_corrupt(tmp):
    proc = run_experiment(tmp, """\
        collectives: [allreduce, allgather]
        sizes: [64B, 4KiB]
        backends:
          - {library: fault, algorithms: [corrupt]}
          - {library: mpi}
        """, env=TEST_BACKENDS)
    report = checked_report(proc, 1)  # a failed case gives exit 1
    corrupt = cases_by(report, backend="fault")
    expect(len(corrupt) == 4, "four corrupt cases")
    for c in corrupt:
        expect(c["status"] == "failed", "corrupt case failed")
        expect(c["validation"] == {"status": "failed", "mismatches": 1}, f"one mismatch: {c['validation']}")
        expect(c["reason"] == "validation: 1 mismatching element", c["reason"])
        expect(c["timing"] is not None, "timing kept for a case that ran")
    ok = cases_by(report, backend="mpi")
    expect(len(ok) == 4 and all(c["status"] == "ok" for c in ok), "the run went on after the corrupt cases")


def test_crash(tmp):
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B, 1KiB]
        backends:
          - {library: mpi}
          - {library: fault, algorithms: [crash]}
        processes: [2]
        """, env=TEST_BACKENDS)
    # mpi and fault at one size are the candidates of one choice, measured in interleaved rounds; a record
    # goes out after each round (docs/methodology.md#rounds). Each crash costs a launch; where fault ran
    # first in round 0, mpi had nothing recorded yet and the relaunch measures it: 2 or 3 launches.
    expect(proc.returncode == 1, f"exit {proc.returncode}")
    report = load(report_path(proc))
    check_schema(report_path(proc))
    expect([c["status"] for c in cases_by(report, backend="mpi")] == ["ok", "ok"], "cases before the crash kept")
    crashed = cases_by(report, backend="fault")
    for c in crashed:
        expect(c["status"] == "failed", "crashed case failed")
        expect(c["reason"].startswith("crash: the worker died during this case"), c["reason"])
        expect("signal 11" in c["reason"], f"the signal is named: {c['reason']}")
    expect(report["run"]["launches"] in (2, 3), f"relaunched after each crash: {report['run']['launches']}")
    crashed_in = {c["bytes"]: c["launch"] for c in crashed}
    kept = 0
    for c in cases_by(report, backend="mpi"):
        if c["launch"] == crashed_in[c["bytes"]]:
            # Measured in the launch that crashed: the rounds before the crash are its record.
            kept += 1
            expect(c.get("rounds") and 1 <= len(c["rounds"]["median_s"]) < 5, str(c.get("rounds")))
        else:
            expect(c.get("rounds") is None, "measured alone in the relaunch: case by case")
    expect(report["run"]["launches"] == 3 - kept, f"{kept} kept from crashed launches, {report['run']['launches']} launches")
    # A resume checks the platform as a run does: a launcher gone since is bad input, and nothing runs.
    run_dir = os.path.dirname(report_path(proc))
    platform_file = os.path.join(run_dir, "platform.yaml")
    with open(platform_file, "w") as f:
        f.write("name: local\nlauncher: {command: /no/such/mpirun}\n")
    before = open(os.path.join(run_dir, "cases.jsonl")).read()
    expect_bad_input(r"platform\.yaml: launcher command '/no/such/mpirun' is not an executable file", "run", "--resume",
                     run_dir, env=TEST_BACKENDS)
    expect(open(os.path.join(run_dir, "cases.jsonl")).read() == before, "a refused resume measures nothing")


def test_hang(tmp):
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B]
        backends:
          - {library: fault, algorithms: [hang]}
          - {library: mpi}
        """, env=TEST_BACKENDS,
        timing="timing: {warmup: 1, min_iterations: 3, max_iterations: 50, time_budget: 20ms, case_timeout: 3s, rounds: 1}\n")
    expect(proc.returncode == 1, f"exit {proc.returncode}")
    report = load(report_path(proc))
    hung = cases_by(report, backend="fault")[0]
    expect(hung["status"] == "failed" and hung["reason"].startswith("timeout:"), hung["reason"])
    expect(hung["elapsed_s"] >= 3, "elapsed covers the timeout")
    expect(cases_by(report, backend="mpi")[0]["status"] == "ok", "the case after the hang ran in a relaunch")
    expect(report["run"]["launches"] == 2, "one relaunch")


def test_interrupt(tmp):
    # SIGTERM while a case hangs: the worker is stopped, what finished is kept, the rest is recorded, the report written.
    path = write(tmp, "experiment.yaml", textwrap.dedent("""\
        collectives: [allreduce]
        sizes: [64B]
        processes: [2, 3]
        backends:
          - {library: mpi}
          - {library: fault, algorithms: [hang]}
        """) + PLAN_ORDER_TIMING)
    results = os.path.join(tmp, "results")
    proc = subprocess.Popen([PICO, "run", path, "--dir", results, "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, **TEST_BACKENDS))
    wait_for_starts(results, 2)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    expect(proc.returncode == 1, f"exit {proc.returncode}\n{stderr}")
    report = load(os.path.join(results, "report.json"))
    check_schema(os.path.join(results, "report.json"))
    expect(report["run"]["interrupted"] is True, "interruption recorded")
    statuses = [(c["backend"], c["np"], c["status"], c["reason"].split(":")[0]) for c in report["cases"]]
    expect(statuses == [("mpi", 2, "ok", ""), ("fault", 2, "failed", "interrupted"),
                        ("mpi", 3, "failed", "not run"), ("fault", 3, "failed", "not run")], str(statuses))
    out = subprocess.run(["pgrep", "-f", "pico-worker --launch " + results], capture_output=True)
    expect(out.returncode == 1, "no worker left running")



HANG_EXPERIMENT = """\
    collectives: [allreduce]
    sizes: [64B]
    processes: [2]
    backends:
      - {library: mpi}
      - {library: fault, algorithms: [hang]}
    """


def wait_for_starts(results, starts):
    """Waits until the worker has written the start of `starts` cases in the results directory (the last one
    may hang). That is all a signal to pico needs to find: pico reads the starts written before it stops, so
    the case in flight is the last one started, however soon after its start the signal comes."""
    progress = os.path.join(results, "progress.jsonl")
    wait_until(lambda: sum(e.get("event") == "start" for e in json_lines(progress)) >= starts,
               f"the start of {starts} cases in {progress}")


def start_hanging_run(tmp):
    """Starts `pico run` on a sweep whose second case hangs; returns the process once it hangs."""
    path = write(tmp, "experiment.yaml", textwrap.dedent(HANG_EXPERIMENT) + PLAN_ORDER_TIMING)
    results = os.path.join(tmp, "results")
    proc = subprocess.Popen([PICO, "run", path, "--dir", results, "-q"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, **TEST_BACKENDS))
    wait_for_starts(results, 2)
    return proc


def processes_of(results):
    """Pids of the processes whose command line names the results directory (mpirun, workers)."""
    out = subprocess.run(["pgrep", "-f", results], capture_output=True, text=True)
    return out.stdout.split()


def test_orphan(tmp):
    # kill -9 of pico mid-run: mpirun and its workers must not run on unwatched.
    results = os.path.join(tmp, "results")
    proc = start_hanging_run(tmp)
    expect(processes_of(results), "the launch is running")
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.time() + 5
    while time.time() < deadline and processes_of(results):
        time.sleep(0.1)
    left = processes_of(results)
    for pid in left:
        os.kill(int(pid), signal.SIGKILL)
    expect(not left, f"processes left 5 s after pico was killed: {left}")


def test_broken_pipe(tmp):
    # The reader of pico's output goes away (SIGPIPE): the run stops as if interrupted and writes its report.
    results = os.path.join(tmp, "results")
    proc = start_hanging_run(tmp)
    proc.stdout.close()
    proc.stderr.close()
    proc.send_signal(signal.SIGPIPE)
    proc.wait(timeout=60)
    expect(proc.returncode == 1, f"exit {proc.returncode}")
    check_schema(os.path.join(results, "report.json"))
    report = load(os.path.join(results, "report.json"))
    expect(report["run"]["interrupted"] is True, "interruption recorded")
    statuses = [(c["backend"], c["status"], c["reason"].split(":")[0]) for c in report["cases"]]
    expect(statuses == [("mpi", "ok", ""), ("fault", "failed", "interrupted")], str(statuses))
    expect(not processes_of(results), "no launch left running")



def test_lock(tmp):
    # pico killed mid-run, then two resumes at once: one runs, the other is refused naming the holder;
    # the launch the killed pico never recorded is in the report's launch log.
    results = os.path.join(tmp, "results")
    killed = start_hanging_run(tmp)
    killed.kill()
    killed.communicate(timeout=30)
    deadline = time.time() + 10
    while time.time() < deadline and processes_of(results):
        time.sleep(0.1)
    env = dict(os.environ, **TEST_BACKENDS)
    first = subprocess.Popen([PICO, "run", "--resume", results, "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    wait_for_starts(results, 3)
    second = pico("run", "--resume", results, "-q", env=TEST_BACKENDS)
    expect(second.returncode == 2, f"second resume: exit {second.returncode}\n{second.stderr}")
    expect(f"in use by another pico (pid {first.pid})" in second.stderr, second.stderr)
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=60)
    expect(first.returncode == 1, f"first resume: exit {first.returncode}")
    check_schema(os.path.join(results, "report.json"))
    log = load(os.path.join(results, "report.json"))["run"]["launch_log"]
    expect([(e["launch"], e["exit"].split(":")[0]) for e in log][:1] == [(0, "unknown")], str(log))
    expect([e["launch"] for e in log] == [0, 1], str(log))


def limit_file_size(size):
    """For preexec_fn: files may grow to `size` bytes, as on a disk that is full there."""
    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return limit


def test_disk_full(tmp):
    # report.json cannot be written: exit 3 names the file and why, the table is still printed, no temporary file stays.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B]
        processes: [2]
        """)
    results = os.path.dirname(report_path(proc))
    full = subprocess.run([PICO, "run", "--resume", results], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit_file_size(200))
    expect(full.returncode == 3, f"exit {full.returncode}\n{full.stderr}")
    expect(re.search(r"could not write results: cannot write \S*report\.json\S*: File too large", full.stderr),
           full.stderr)
    expect("allreduce" in full.stdout and "report:" not in full.stdout, full.stdout)
    expect(not [f for f in os.listdir(results) if ".tmp." in f], str(os.listdir(results)))
