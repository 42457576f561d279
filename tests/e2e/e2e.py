#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests: the real `pico` and `pico-worker` on the local platform.

usage: e2e.py TEST   (PICO = path of the pico binary, PICO_SOURCE_DIR = the source tree)

Each test runs pico as a user would, in a fresh temporary directory, and
asserts on exit codes, messages and the report (validated against
docs/report.schema.json).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

PICO = os.environ["PICO"]
SRC = os.environ["PICO_SOURCE_DIR"]
SCHEMA = os.path.join(SRC, "docs", "report.schema.json")
CHECK_REPORT = os.path.join(SRC, "tests", "tools", "check_report.py")

# Small, fast timing for tests: correctness is what is asserted, not speed.
FAST_TIMING = "timing: {warmup: 1, min_iterations: 3, max_iterations: 50, time_budget: 20ms, case_timeout: 60s}\n"
# The same, case by case in plan order (rounds: 1): for the tests of what a
# hang or an interruption leaves, which hold for a known order.
PLAN_ORDER_TIMING = FAST_TIMING.replace("}", ", rounds: 1}")


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def pico(*args, env=None, cwd=None):
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run([PICO, *args], capture_output=True, text=True, env=full_env, cwd=cwd, timeout=280)
    return proc


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(text))
    return path


def report_path(proc):
    m = re.search(r"^report: (.+)$", proc.stdout, re.M)
    expect(m, f"no 'report:' line in output:\n{proc.stdout}\n{proc.stderr}")
    return m.group(1)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_schema(path, *expectations):
    proc = subprocess.run([sys.executable, CHECK_REPORT, SCHEMA, path, *expectations], capture_output=True, text=True)
    expect(proc.returncode == 0, f"report check failed:\n{proc.stdout}{proc.stderr}")


def checked_report(proc, exit_code=0):
    """The report of a run that exited with exit_code, checked against the schema."""
    expect(proc.returncode == exit_code, f"exit {proc.returncode}, expected {exit_code}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path)
    return load(path)


def run_experiment(tmp, yaml_text, *extra, env=None, timing=FAST_TIMING):
    path = write(tmp, "experiment.yaml", textwrap.dedent(yaml_text) + timing)
    return pico("run", path, "-o", os.path.join(tmp, "results"), *extra, env=env, cwd=tmp)


def cases_by(report, **fields):
    return [c for c in report["cases"] if all(c[k] == v for k, v in fields.items())]


TEST_BACKENDS = {"PICO_ENABLE_TEST_BACKENDS": "1"}


def test_quickstart(tmp):
    proc = pico("run", os.path.join(SRC, "configs", "quickstart.yaml"), "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    path = report_path(proc)
    check_schema(path, "--expect-status", "ok", "--expect-cases", "217")
    report = load(path)
    expect(report["schema"] == "pico-report/1", "schema tag")
    expect(all(c["validation"]["status"] == "passed" for c in report["cases"] if c["collective"] != "barrier"),
           "every payload case validated")
    expect(report["run"]["launches"] == 1, "one launch")
    expect(report["provenance"]["mpi"]["library_version"].startswith("Open MPI")
           or "MPICH" in report["provenance"]["mpi"]["library_version"], "library version recorded")
    planned = report["provenance"]["mpi_planned"]
    expect(planned["library"] == report["provenance"]["mpi"]["library"] == report["run"]["mpi_target"]["library"]
           and planned["launcher"]["library"] == planned["library"], f"planned and met library agree: {planned}")
    expect(len(report["provenance"]["ranks"]) == 2, "two ranks placed")
    host = report["provenance"]["hosts"][0]
    expect(host["topology"]["pus"] >= 1 and os.path.exists(os.path.join(os.path.dirname(path), host["topology_xml"])),
           "topology summary and XML")
    expect("OMPI_COMM_WORLD_SIZE" in report["provenance"]["env"] or report["provenance"]["mpi"]["library"] != "openmpi",
           "worker environment captured")
    expect("mpirun" in report["provenance"]["launch_commands"][0][0], "launch command recorded")
    results_dir = os.path.dirname(path)
    for name in ["experiment.yaml", "platform.yaml", "plan.json", "cases.jsonl", "launch-0.log", "launch-0.json"]:
        expect(os.path.exists(os.path.join(results_dir, name)), f"{name} in results directory")
    # The table is what the user sees, and pico report renders the same report.
    expect("217 cases: 217 ok, 0 failed, 0 skipped" in proc.stdout, "summary line")
    table = pico("report", results_dir)
    expect(table.returncode == 0 and "allreduce" in table.stdout, "pico report table")
    csv = pico("report", results_dir, "--format", "csv")
    expect(csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == 218, "csv has header + 217 rows")
    js = pico("report", path, "--format", "json")
    expect(json.loads(js.stdout)["cases"][0]["case_id"] == report["cases"][0]["case_id"], "json output")


def test_np_sweep(tmp):
    # np 1..4 (3 is not a power of two, 3 and 4 oversubscribe 2 cores), counts below np and not divisible by it.
    proc = run_experiment(tmp, """\
        collectives: all
        counts: [1, 3, 7]
        dtypes: [int8, uint8, int64, float64]
        ops: all
        processes: [1, 2, 3, 4]
        in_place: both
        """)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path, "--expect-status", "ok")
    report = load(path)
    # Per np: 4 dtypes x 3 counts x (5 reducing x 4 ops x 2 + 4 x 2 + bcast, sendrecv 1 each) + 1 barrier = 12 x 50 + 1.
    expect(len(report["cases"]) == 4 * (12 * 50 + 1 + 3 * 4),  # alltoallv: no in-place form, no op
           f"{len(report['cases'])} cases")
    expect(report["run"]["launches"] == 4, "one launch per process count")
    expect({c["np"] for c in report["cases"]} == {1, 2, 3, 4}, "all process counts")
    expect(all(c["validation"]["status"] == "passed" for c in report["cases"] if c["collective"] != "barrier"),
           "all validated")


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
    deadline = time.time() + 60
    progress = os.path.join(results, "progress.jsonl")
    while time.time() < deadline:
        if os.path.exists(progress) and open(progress).read().count("start") >= 2:
            break
        time.sleep(0.05)
    time.sleep(0.3)
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
    """Waits until `starts` cases have started in the results directory (the last one may hang)."""
    progress = os.path.join(results, "progress.jsonl")
    deadline = time.time() + 60
    while time.time() < deadline:
        if os.path.exists(progress) and open(progress).read().count("start") >= starts:
            break
        time.sleep(0.05)
    time.sleep(0.3)


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


# sendrecv has no algorithm to choose: the sweep must plan it as `default` only.
SWEEP_COLLECTIVES = "[allreduce, bcast, allgather, alltoall, reduce, reduce_scatter, scan, exscan, sendrecv]"


def catalogue_names(library, collective, call="blocking"):
    """(every algorithm, those limited to some versions) of one call form in the library's catalogue."""
    out = subprocess.run([PICO, "list", "algorithms", "--library", library, "--collective", collective],
                         capture_output=True, text=True, check=True, cwd=SRC).stdout.splitlines()[1:]
    rows = [line.split() for line in out if line.split()[2] == call]
    return {r[3] for r in rows}, {r[3] for r in rows if r[6] != "all"}


def check_sweep(report, library):
    expect(report["run"]["mpi_target"]["library"] == library, f"planned for {report['run']['mpi_target']}")
    for coll in ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "scan", "exscan", "sendrecv"]:
        seen = {c["algorithm"] for c in report["cases"] if c["collective"] == coll}
        every, versioned = catalogue_names(library, coll)
        expect(seen <= every and every - seen <= versioned, f"{coll}: {sorted(seen)} vs catalogue {sorted(every)}")
    expect(catalogue_names(library, "sendrecv")[0] == {"default"}, "sendrecv: default only")
    for c in report["cases"]:
        if c["status"] == "skipped":
            expect(c["reason"], "a skipped case says why")
            continue
        expect(c["status"] == "ok", f"{c['collective']} {c['algorithm']} {c['bytes']}: {c['reason']}")
        expect(c["selection"]["verified"] is True, f"{c['collective']} {c['algorithm']}: {c['selection']}")
        expect(c["validation"]["status"] == "passed" or c["collective"] == "barrier",  # no payload to check
               f"{c['collective']} {c['algorithm']}: validation {c['validation']}")
        check_actual(c, library)


def check_actual(c, library):
    """Open MPI: the interposer saw the forced algorithm run, and some catalogued algorithm for the
    default (sendrecv has none); MPICH: nothing can see it, and the report says why."""
    actual = c["selection"]["actual"]
    if library == "mpich":
        expect(actual["source"] == "none" and "MPICH exports no" in actual["note"], str(actual))
        return
    expect(actual["source"] == "interposer", str(actual))
    if c["algorithm"] != "default":
        expect(actual["algorithm"] == c["algorithm"], f"{c['collective']} {c['algorithm']} ran {actual}")
    elif c["collective"] != "sendrecv":
        expect(actual["algorithm"], f"{c['collective']} default {c['bytes']}: {actual}")


def test_openmpi_sweep(tmp):
    proc = run_experiment(tmp, f"""\
        collectives: {SWEEP_COLLECTIVES}
        sizes: [8B, 1KiB, 64KiB]
        processes: [4]
        backends: [{{library: mpi, algorithms: all}}]
        """)
    report = checked_report(proc)
    expect(report["run"]["launches"] == 1, f"one launch for the whole sweep, got {report['run']['launches']}")
    check_sweep(report, "openmpi")
    ring = [c for c in report["cases"] if c["collective"] == "allreduce" and c["algorithm"] == "ring" and c["count"] >= 4]
    expect(len(ring) == 2 and all(c["status"] == "ok" for c in ring), "ring runs where count >= np")
    expect(ring[0]["selection"]["variable"] == "coll_tuned_allreduce_algorithm" and ring[0]["selection"]["applied"] == "4",
           str(ring[0]["selection"]))
    tiny = [c for c in report["cases"] if c["collective"] == "allreduce" and c["algorithm"] == "ring" and c["count"] < 4]
    expect(all(c["status"] == "skipped" and "falls back to recursive_doubling" in c["reason"] for c in tiny), "ring < np")
    expect(all(c["status"] == "skipped" for c in report["cases"] if c["algorithm"] == "two_proc"), "two_proc at np=4")
    # `algorithms: all` sweeps the catalogue's parameter grid: segmented algorithms are measured.
    seg = [c for c in report["cases"] if c["algorithm"] == "segmented_ring" and c["bytes"] == 65536]
    expect(sorted(c["params"]["segment_size"] for c in seg) == [0, 8192, 65536], str([c["params"] for c in seg]))
    cut = [c for c in seg if c["params"]["segment_size"] == 8192][0]
    expect(cut["status"] == "ok" and cut["selection"]["actual"]["algorithm"] == "segmented_ring", str(cut["selection"]))
    chain = [c["params"] for c in report["cases"] if c["collective"] == "bcast" and c["algorithm"] == "chain" and c["bytes"] == 1024]
    expect(len(chain) == 6 and {p["chain_fanout"] for p in chain} == {2, 4}, str(chain))


MPICH_PLATFORM = os.path.join(SRC, "platforms", "local-mpich.yaml")
# The MPICH whose MPI_T ids (catalogue `readback`) were checked: configs/catalog/mpich.yaml, mpi_t_versions.
MPICH_MPI_T_VERSION = "4.0.2"


def needs_mpich_mpi_t(report):
    if report["run"]["mpi_target"].get("version") != MPICH_MPI_T_VERSION:
        print(f"SKIP: MPI_T selection is for MPICH {MPICH_MPI_T_VERSION}; this is {report['run']['mpi_target']}")
        sys.exit(77)


def test_mpich_sweep(tmp):
    # Every algorithm of every collective in one launch: the worker writes MPICH's id for each
    # through MPI_T, and MPICH runs it from the next call on.
    proc = run_experiment(tmp, f"""\
        collectives: {SWEEP_COLLECTIVES}
        sizes: [8B, 4KiB]
        processes: [2]
        backends: [{{library: mpi, algorithms: all}}]
        """, "-p", MPICH_PLATFORM)
    report = checked_report(proc)
    expect("MPICH" in report["provenance"]["mpi"]["library_version"], "ran on MPICH")
    needs_mpich_mpi_t(report)
    check_sweep(report, "mpich")
    expect(report["run"]["launches"] == 1, f"one launch for the whole sweep, got {report['run']['launches']}")
    selected = [c for c in report["cases"] if c["status"] == "ok" and c["collective"] != "sendrecv"]
    for c in selected:
        s = c["selection"]
        expect(s["mechanism"] == "mpi_t" and s["applied"] == s["readback"] and s["readback"], str(s))
    algorithms = {(c["collective"], c["algorithm"]) for c in selected if c["algorithm"] != "default"}
    expect(len(algorithms) >= 15, f"the launch ran {len(algorithms)} algorithms")
    env = load(os.path.join(os.path.dirname(report_path(proc)), "launch-0.json"))["env"]
    expect(env == {"MPIR_CVAR_COLLECTIVE_FALLBACK": "error", "MPIR_CVAR_DEVICE_COLLECTIVES": "none"}, str(env))


def test_call_forms(tmp):
    # The blocking call, MPI_I<Coll> + MPI_Wait and the persistent form side by side in one run, on Open MPI
    # (persistent through its MPIX_ pcollreq extension) and on MPICH (MPI 4.0's MPI_<Coll>_init).
    for library, extra in (("openmpi", ()), ("mpich", ("-p", MPICH_PLATFORM))):
        d = os.path.join(tmp, library)
        os.makedirs(d)
        proc = run_experiment(d, """\
            collectives: [allreduce, scan, sendrecv, barrier]
            sizes: [8B, 64KiB]
            processes: [2]
            backends:
              - {library: mpi}
              - {library: mpi, call: nonblocking}
              - {library: mpi, call: persistent}
            """, *extra)
        report = checked_report(proc)
        expect(report["run"]["mpi_target"]["library"] == library, str(report["run"]["mpi_target"]))
        by_form = {form: [c for c in report["cases"] if c.get("options", {}).get("call", "blocking") == form]
                   for form in ("blocking", "nonblocking", "persistent")}
        expect(all(len(cases) == 7 for cases in by_form.values()), {f: len(c) for f, c in by_form.items()})
        ids = [c["case_id"] for c in report["cases"]]
        expect(len(set(ids)) == len(ids), "the call form is in the case id")
        for c in report["cases"]:
            expect(c["status"] == "ok", f"{c['collective']} {c.get('options')}: {c['reason']}")
            expect(c["validation"]["status"] == "passed" or c["collective"] == "barrier", str(c["validation"]))
        # OSU's overlap for the non-blocking calls only: compute calibrated to the pure time (the busy loop
        # lasts at least its target on every rank), overall at least the compute, a percentage.
        for form, cases in by_form.items():
            for c in cases:
                expect(("overlap" in c) == (form == "nonblocking"), f"{c['collective']} {form}: overlap")
        for c in by_form["nonblocking"]:
            o = c["overlap"]
            expect(o["iterations"] >= 1 and o["pure_comm_s"] > 0 and o["compute_s"] >= o["pure_comm_s"] * 0.999
                   and o["overall_s"] >= o["compute_s"] and 0 <= o["percent"] <= 100, f"{c['collective']}: {o}")
            expect(abs(o["percent"] - max(0, 100 - (o["overall_s"] - o["compute_s"]) / o["pure_comm_s"] * 100)) < 1e-9,
                   f"OSU's formula: {o}")
        expect("(OSU 7.4's overlap)" in proc.stdout and "overlap(%)" in proc.stdout, proc.stdout[-3000:])
        for form in ("nonblocking", "persistent"):
            # 7 rows in the main table, and 7 more for the non-blocking form in the overlap table.
            expect(proc.stdout.count(f"mpi/default ({form})") == (14 if form == "nonblocking" else 7),
                   f"the tables name the {form} form")
        if library == "openmpi":
            # The interposer's proof that the forms differ: tuned's allreduce ran for the blocking call only
            # (coll/libnbc serves MPI_Iallreduce and the persistent form).
            for form, cases in by_form.items():
                for c in cases:
                    if c["collective"] == "allreduce":
                        ran = c["selection"]["actual"]["functions"]
                        expect(bool(ran) == (form == "blocking"), f"allreduce {form}: {ran}")


NONBLOCKING_COLLECTIVES = ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "gather",
                           "scatter", "scan", "exscan", "barrier"]


def test_nonblocking_algorithms(tmp):
    # Every non-blocking algorithm of each library's catalogue (Open MPI's coll/libnbc, MPICH's I<coll>
    # schedules), forced through its own MPI_T variable in one launch, at np 3 (the non-power-of-two
    # constraints), in place and not: each runs and validates, or is skipped with the catalogue's reason.
    # The same for the persistent form, which runs those schedules. Open MPI: the collectives libnbc has
    # variables for, and alltoall for one it has none for (3 ranks on 2 cores make its calls slow); MPICH:
    # every collective, but persistent gather, scatter and allgather, whose 4.0.2 defects
    # docs/configuration.md#call-forms describes.
    libnbc = ["allreduce", "bcast", "allgather", "alltoall", "reduce", "scan", "exscan"]
    mpich_persistent = [c for c in NONBLOCKING_COLLECTIVES if c not in ("gather", "scatter", "allgather")]
    # The persistent form once per algorithm (64 B, out of place): the variable reaching MPI_<Coll>_init.
    # MPICH's many algorithms out of place, and in place only where that changes which run (alltoall).
    for library, call, extra, collectives, sizes, in_place in (
            ("openmpi", "nonblocking", (), libnbc, "4B, 64B", "both"),
            ("openmpi", "persistent", (), libnbc, "64B", "false"),
            ("mpich", "nonblocking", ("-p", MPICH_PLATFORM), NONBLOCKING_COLLECTIVES, "4B, 64B", "false"),
            ("mpich", "nonblocking", ("-p", MPICH_PLATFORM), ["alltoall"], "64B", "true"),
            ("mpich", "persistent", ("-p", MPICH_PLATFORM), mpich_persistent, "64B", "false")):
        d = os.path.join(tmp, f"{library}-{call}-{in_place}")
        os.makedirs(d)
        proc = run_experiment(d, f"""\
            collectives: [{", ".join(collectives)}]
            sizes: [{sizes}]
            in_place: {in_place}
            processes: [3]
            backends: [{{library: mpi, call: {call}, algorithms: all}}]
            """, *extra)
        report = checked_report(proc)
        if library == "mpich":
            needs_mpich_mpi_t(report)
        expect(report["run"]["launches"] == 1, f"{library}: one launch, got {report['run']['launches']}")
        for coll in collectives:
            seen = {c["algorithm"] for c in report["cases"] if c["collective"] == coll}
            every, versioned = catalogue_names(library, coll, "nonblocking")
            expect(seen == (every or {"default"}), f"{library} {coll}: {sorted(seen)} vs catalogue {sorted(every)}")
        prefix = "coll_libnbc_i" if library == "openmpi" else "MPIR_CVAR_I"
        ran = set()
        for c in report["cases"]:
            label = f"{library} {call} {c['collective']} {c['algorithm']} {c['bytes']}B in_place={c['in_place']}"
            expect(c["options"] == {"call": call}, label)
            if c["status"] == "skipped":
                expect(c["reason"] and c["algorithm"] != "default", f"{label}: {c['reason']}")
                continue
            expect(c["status"] == "ok", f"{label}: {c['reason']}")
            expect(c["validation"]["status"] == "passed" or c["collective"] == "barrier", f"{label}: {c['validation']}")
            s = c["selection"]
            if s["variable"]:
                expect(s["variable"].startswith(prefix) and s["verified"], f"{label}: {s}")
            if c["algorithm"] != "default":
                ran.add((c["collective"], c["algorithm"]))
                expect(s["applied"] == (s["readback"] or s["value"]), f"{label}: {s}")
        least = 14 if library == "openmpi" else 25 if len(collectives) > 1 else 4  # in-place ialltoall: 4
        expect(len(ran) >= least, f"{library} {call} in_place={in_place}: {len(ran)} ran: {sorted(ran)}")


def test_alltoallv(tmp):
    # alltoallv under every count-matrix pattern, a file's among them, at np 3: each library's algorithms
    # forced and seen (Open MPI's interposer sees its coll/base function run) beside pico's reference
    # ones and MPICH's non-blocking schedules; each case validates and its report carries its pattern;
    # a hot rank outside the ranks is skipped with the reason.
    write(tmp, "counts.txt", "# rows: senders\n0 1 2\n3 0 1\n# the last\n5 5 0\n")
    patterns = {"uniform", "random:seed=3", "hot:rank=2,factor=8", "powerlaw:alpha=1.5", "distance:spread=0.5",
                "file:" + os.path.join(os.path.realpath(tmp), "counts.txt")}
    for library, extra, backends in (
            ("openmpi", (), "[{library: mpi, algorithms: all}, {library: reference, algorithms: all}]"),
            ("mpich", ("-p", MPICH_PLATFORM),
             "[{library: mpi, algorithms: all}, {library: mpi, call: nonblocking, algorithms: all}]")):
        d = os.path.join(tmp, library)
        os.makedirs(d)
        proc = run_experiment(d, f"""\
            collectives: [alltoallv]
            sizes: [4B, 4KiB]
            processes: [3]
            count_matrix: [uniform, {{pattern: random, seed: 3}}, {{pattern: hot, rank: 2, factor: 8}},
                           {{pattern: powerlaw, alpha: 1.5}}, {{pattern: file, path: ../counts.txt}},
                           {{pattern: distance, spread: 0.5}},
                           {{pattern: hot, rank: 3}}]
            backends: {backends}
            """, *extra)
        report = checked_report(proc)
        if library == "mpich":
            needs_mpich_mpi_t(report)
        seen = {c["options"]["counts"] for c in report["cases"] if c["status"] != "skipped"}
        expect(seen == patterns, f"{library}: patterns {sorted(seen)}")
        algorithms = {(c["backend"], c["options"].get("call", "blocking"), c["algorithm"]) for c in report["cases"]}
        for backend, call, catalogue in (("mpi", "blocking", library), ("mpi", "nonblocking", library),
                                         ("reference", "blocking", "reference")):
            every = {a for b, f, a in algorithms if b == backend and f == call}
            if every:
                names, _ = catalogue_names(catalogue, "alltoallv", call)
                expect(every == names | {"default"} - ({"default"} if backend == "reference" else set()),
                       f"{library} {backend} {call}: {sorted(every)} vs {sorted(names)}")
        for c in report["cases"]:
            label = f"{library} {c['backend']} {c['algorithm']} {c['bytes']}B {c['options']}"
            if c["status"] == "skipped":
                expect(c["options"]["counts"] == "hot:rank=3,factor=8" and "not among the 3 ranks" in c["reason"], label)
                continue
            expect(c["status"] == "ok", f"{label}: {c['reason']}")
            expect(c["validation"]["status"] == "passed", f"{label}: {c['validation']}")
            if c["backend"] == "mpi" and c["options"].get("call") is None:
                expect(c["selection"]["verified"] is True, f"{label}: {c['selection']}")
                check_actual(c, library)
        expect(sum(c["status"] == "skipped" for c in report["cases"]) == len(algorithms) * 2,
               f"{library}: one hot-rank-3 case skipped per algorithm and size")
    # pico bench and pico schedule take the pattern as its text.
    proc = pico("bench", "alltoallv", "--np", "3", "--sizes", "1KiB", "--counts", "hot:rank=2,factor=4",
                "--time-budget", "50ms", "-o", os.path.join(tmp, "bench"), cwd=tmp)
    (case,) = checked_report(proc)["cases"]
    expect(case["options"] == {"counts": "hot:rank=2,factor=4"} and case["validation"]["status"] == "passed", str(case))
    proc = pico("bench", "alltoallv", "--counts", "zipf", cwd=tmp)
    expect(proc.returncode == 2 and "--counts: unknown count pattern 'zipf'" in proc.stderr, proc.stderr)
    proc = pico("schedule", "alltoallv", "--np", "3", "--size", "16B", "--algorithm", "linear",
                "--counts", "hot:rank=0,factor=4", "-f", "json", cwd=tmp)
    expect(proc.returncode == 0, proc.stderr)
    schedule = json.loads(proc.stdout)
    received = [sum(op["bytes"] for op in r["ops"] if op["kind"] == "recv") for r in schedule["ranks"]]
    expect(schedule["counts"] == "hot:rank=0,factor=4" and received[0] == 4 * received[1] == 4 * received[2],
           f"received {received}")


def test_mpich_mpi_t_fallback(tmp):
    # Refused MPI_T writes: one launch per algorithm with its name in the environment, as on an MPICH
    # whose ids pico has not checked. MPICH parses the name and the worker reads the id back, so this
    # also checks every id the catalogue writes through MPI_T against the library's own numbering.
    proc = run_experiment(tmp, """\
        collectives: all
        sizes: [4KiB]
        processes: [2]
        in_place: both
        backends: [{library: mpi, algorithms: all}]
        """, "-p", MPICH_PLATFORM, env={"PICO_TEST_REFUSE_MPI_T": "1"})
    report = checked_report(proc)
    needs_mpich_mpi_t(report)
    check_sweep(report, "mpich")
    fell_back = [c for c in report["cases"] if c["selection"].get("fallback")]
    for c in fell_back:
        s = c["selection"]
        expect(s["mechanism"] == "env" and s["verified"] and s["applied"] == s["readback"], str(s))
    checked = {(c["collective"], c["algorithm"]) for c in fell_back}
    for coll in ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "scan", "exscan", "gather",
                 "scatter", "barrier"]:
        every = catalogue_names("mpich", coll)[0]
        expect({a for (cl, a) in checked if cl == coll} == every, f"{coll}: ids of {sorted(every)} checked")
    launches = {c["selection"]["variable"] + "=" + c["selection"]["value"] for c in fell_back}
    expect(report["run"]["launches"] == 1 + len(launches),
           f"1 refused launch + {len(launches)} by name, got {report['run']['launches']}")


def test_mpich_mpi_t_effect(tmp):
    # Proof by behaviour, in one process, that each MPI_T write is what MPICH runs: without the
    # catalogue's guard, reduce_scatter_allgather is planned on a 4-byte allreduce (count 1 < 2 ranks),
    # which MPICH under COLLECTIVE_FALLBACK=error refuses, killing the worker. Plan order: default
    # 4 B, 64 B; reduce_scatter_allgather 4 B (fails), 64 B; recursive_doubling 4 B, 64 B.
    with open(os.path.join(SRC, "configs", "catalog", "mpich.yaml"), encoding="utf-8") as f:
        catalogue, guards = re.subn(r"\n *constraints:\n *- \{require: \"count >= np_pow2\", "
                                    r"reason: \"MPICH's reduce_scatter_allgather needs[^\n]*", "", f.read())
    expect(guards == 1, "the catalogue's reduce_scatter_allgather guard was found")
    os.makedirs(os.path.join(tmp, "configs", "catalog"))
    write(os.path.join(tmp, "configs", "catalog"), "mpich.yaml", catalogue)  # pico reads ./configs first
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [4B, 64B]
        processes: [2]
        backends: [{library: mpi, algorithms: [reduce_scatter_allgather, recursive_doubling]}]
        """, "-p", MPICH_PLATFORM)
    expect(proc.returncode == 1, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    check_schema(report_path(proc))
    report = load(report_path(proc))
    needs_mpich_mpi_t(report)
    results = {(c["algorithm"], c["bytes"]): c for c in report["cases"]}
    failed = results[("reduce_scatter_allgather", 4)]
    expect(failed["status"] == "failed" and failed["reason"].startswith("crash"), f"{failed['status']}: {failed['reason']}")
    for key, c in results.items():
        if key != ("reduce_scatter_allgather", 4):
            expect(c["status"] == "ok" and c["selection"]["mechanism"] == "mpi_t" and c["selection"]["verified"],
                   f"{key}: {c['status']} {c['reason']} {c['selection']}")
    # One launch group: the first launch died on the write that broke the call, in round 0 of the 4 B
    # choice (its three candidates interleaved: docs/methodology.md#rounds); the relaunch ran the rest. A 4 B
    # candidate measured before the crash in round 0 kept that round (launch 0); one not yet measured ran in
    # the relaunch.
    expect(report["run"]["launches"] == 2, f"one launch and one relaunch after the crash, got {report['run']['launches']}")
    launch = [c["launch"] for c in (results[("default", 4)], failed, results[("reduce_scatter_allgather", 64)],
                                    results[("recursive_doubling", 4)])]
    expect(launch[0] in (0, 1) and launch[1:3] == [0, 1] and launch[3] in (0, 1),
           f"launches of default, the failure, and the cases after it: {launch}")
    log = open(os.path.join(os.path.dirname(report_path(proc)), "launch-0.log"), encoding="utf-8").read()
    # Hydra sometimes ends the ranks before their abort message is forwarded: check it when it came.
    expect(not log or ("count=1" in log and "User set collective algorithm is not usable" in log),
           f"launch-0.log: {log[-2000:]}")


def test_mpi_t_fallback(tmp):
    # A library that refuses MPI_T writes: the forced cases run again, one launch per algorithm, via the environment.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B, 1KiB]
        processes: [2]
        backends: [{library: mpi, algorithms: [ring, recursive_doubling]}]
        """, env={"PICO_TEST_REFUSE_MPI_T": "1"})
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    report = load(report_path(proc))
    check_schema(report_path(proc))
    expect([c["algorithm"] for c in report["cases"]] == ["default"] * 2 + ["ring"] * 2 + ["recursive_doubling"] * 2,
           "default is always part of the sweep")
    for c in report["cases"]:
        expect(c["status"] == "ok", c["reason"])
        expect(c["selection"]["mechanism"] == "env" and c["selection"]["fallback"], str(c["selection"]))
        expect(c["selection"]["verified"] is True, str(c["selection"]))
    expect(report["run"]["launches"] == 4, f"1 refused launch + 3 fallback launches, got {report['run']['launches']}")


def test_segment_params(tmp):
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64KiB]
        processes: [2]
        backends: [{library: mpi, algorithms: [segmented_ring], params: {segment_size: [0, 4KiB]}}]
        """)
    expect(proc.returncode == 0, proc.stderr[-2000:])
    cases = [c for c in load(report_path(proc))["cases"] if c["algorithm"] == "segmented_ring"]
    expect([c["params"] for c in cases] == [{"segment_size": 0}, {"segment_size": 4096}], str([c["params"] for c in cases]))
    expect(cases[0]["status"] == "skipped" and "plain ring" in cases[0]["reason"], cases[0]["reason"])
    expect(cases[1]["status"] == "ok" and cases[1]["selection"]["verified"], str(cases[1]["selection"]))
    expect(cases[1]["selection"]["parameters"] == {"coll_tuned_allreduce_algorithm_segmentsize": "4096"}, "parameter")
    expect(cases[0]["case_id"] != cases[1]["case_id"], "parameters are part of the case id")


def actual_of(report, **fields):
    return {(c["np"], c["bytes"], c["algorithm"]): c["selection"]["actual"] for c in cases_by(report, **fields)
            if c["status"] != "skipped"}


def test_interposer(tmp):
    # Which algorithm Open MPI 4.1.4 ran, seen by the interposer pico-worker preloads. The defaults
    # are those of coll_tuned_decision_fixed.c (commutative sum): allreduce on 4 ranks picks ring
    # (alg 4) below 16 B, which falls back to recursive doubling when count < np, recursive doubling
    # below 8 KiB and rabenseifner (6) above; on 2 ranks recursive doubling below 4 KiB and the
    # segmented ring (5, segment size 0: the plain ring) from 64 KiB; barrier (by communicator size
    # alone) recursive doubling (3) below 4 ranks, linear (1) below 8.
    experiment = """\
        collectives: [allreduce, barrier]
        sizes: [8B, 1KiB, 64KiB]
        processes: [2, 4]
        backends: [{library: mpi, algorithms: [default, ring]}]
        """
    proc = run_experiment(tmp, experiment)
    report = checked_report(proc)
    if report["provenance"]["mpi"].get("version") != "4.1.4" and "v4.1.4" not in report["provenance"]["mpi"]["library_version"]:
        print("SKIP: the expected defaults are Open MPI 4.1.4's")
        sys.exit(77)
    allreduce = actual_of(report, collective="allreduce")
    for key, actual in allreduce.items():
        expect(actual["source"] == "interposer", f"{key}: {actual}")
    expect(allreduce[(4, 8, "default")]["algorithm"] == "recursive_doubling", str(allreduce[(4, 8, "default")]))
    expect(allreduce[(4, 8, "default")]["note"] == "delegated: ring -> recursive_doubling", str(allreduce[(4, 8, "default")]))
    expect(allreduce[(4, 1024, "default")]["algorithm"] == "recursive_doubling", str(allreduce[(4, 1024, "default")]))
    expect(allreduce[(4, 65536, "default")]["algorithm"] == "rabenseifner", str(allreduce[(4, 65536, "default")]))
    expect(allreduce[(2, 1024, "default")]["algorithm"] == "recursive_doubling", str(allreduce[(2, 1024, "default")]))
    expect(allreduce[(2, 65536, "default")]["algorithm"] == "ring" and
           allreduce[(2, 65536, "default")]["note"] == "delegated: segmented_ring -> ring", str(allreduce[(2, 65536, "default")]))
    for np_ in (2, 4):
        for size in (1024, 65536):
            ring = allreduce[(np_, size, "ring")]
            expect(ring["algorithm"] == "ring" and ring["functions"] and "_intra_ring x " in ring["functions"][0], str(ring))
    barrier = actual_of(report, collective="barrier")
    expect(barrier[(2, 0, "default")]["algorithm"] == "recursive_doubling", str(barrier))
    expect(barrier[(4, 0, "default")]["algorithm"] == "linear", str(barrier))
    expect(all(c["status"] == "ok" for c in report["cases"] if c["status"] != "skipped"), "every case ran")
    # A default case's row in the table says what ran.
    table = pico("report", report_path(proc))
    expect("default (ran rabenseifner)" in table.stdout, table.stdout)

    # Switched off, nothing is seen: the source says so instead of guessing.
    off_dir = os.path.join(tmp, "off")
    os.makedirs(off_dir)
    off = checked_report(run_experiment(off_dir, """\
        collectives: [allreduce]
        sizes: [1KiB]
        processes: [2]
        backends: [{library: mpi, algorithms: [default]}]
        """, env={"PICO_INTERPOSER": "off"}))
    for c in off["cases"]:
        expect(c["selection"]["actual"]["source"] == "none" and "PICO_INTERPOSER=off" in c["selection"]["actual"]["note"],
               str(c["selection"]))


def test_repetitions(tmp):
    # The plan three times, each repetition in a launch of its own, in a shuffled order; the report keeps
    # every repetition's result (same case_id, different launch), and resume keys on the repetition too.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [8B, 1KiB]
        processes: [2]
        backends: [{library: mpi, algorithms: [default, recursive_doubling]}]
        repetitions: 3
        repetition_seed: 5
        """)
    report = checked_report(proc)
    expect(report["run"]["launches"] == 3, f"one launch per repetition, got {report['run']['launches']}")
    by_id = {}
    for c in report["cases"]:
        expect(c["status"] == "ok", c["reason"])
        by_id.setdefault(c["case_id"], []).append(c)
    expect(len(by_id) == 4 and all(len(v) == 3 for v in by_id.values()), str({k: len(v) for k, v in by_id.items()}))
    for runs in by_id.values():
        expect(sorted(c.get("repetition", 0) for c in runs) == [0, 1, 2], str([c.get("repetition") for c in runs]))
        expect(len({c["launch"] for c in runs}) == 3, "each repetition in its own launch")
    results = os.path.dirname(report_path(proc))
    starts = [json.loads(line) for line in open(os.path.join(results, "progress.jsonl")) if '"start"' in line]
    per_launch = {}
    for s in starts:
        per_launch.setdefault(s["launch"], []).append(s["case_id"])
    expect(len({tuple(v) for v in per_launch.values()}) > 1, f"every repetition ran in the same order: {per_launch}")
    # Lose the last repetition's results: a resume runs exactly those again, in one more launch.
    cases_file = os.path.join(results, "cases.jsonl")
    with open(cases_file, encoding="utf-8") as f:
        kept = [line for line in f if json.loads(line).get("repetition", 0) != 2]
    with open(cases_file, "w", encoding="utf-8") as f:
        f.writelines(kept)
    resumed = pico("run", "--resume", results)
    expect(resumed.returncode == 0, f"resume: {resumed.stdout}{resumed.stderr[-1000:]}")
    again = load(os.path.join(results, "report.json"))
    expect(again["run"]["launches"] == 4, f"one more launch, got {again['run']['launches']}")
    last = [c for c in again["cases"] if c.get("repetition", 0) == 2]
    expect(len(last) == 4 and all(c["status"] == "ok" and c["launch"] == 3 for c in last),
           str([(c["status"], c["launch"]) for c in last]))
    expect(sum(c["status"] == "ok" for c in again["cases"]) == 12, "every repetition of every case kept")


def test_reference_backend(tmp):
    # pico's own algorithms beside the library's, in the same launch, validated exactly.
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast, allgather, reduce_scatter]
        counts: [1, 5, 1000]
        dtypes: [int32, float64]
        processes: [3]
        in_place: both
        backends:
          - {library: mpi}
          - {library: reference, algorithms: all, params: {segment_size: [1KiB]}}
        """)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    report = load(report_path(proc))
    check_schema(report_path(proc))
    expect(report["run"]["launches"] == 1, "library and reference cases share one launch")
    reference = [c for c in report["cases"] if c["backend"] == "reference"]
    expect({c["algorithm"] for c in reference if c["collective"] == "allreduce"} ==
           {"recursive_doubling", "ring", "rabenseifner", "reduce_bcast", "segmented_ring"}, "all allreduce algorithms")
    for c in reference:
        expect(c["status"] == "ok" and c["validation"]["status"] == "passed", f"{c['algorithm']}: {c['reason']}")
        expect(c["selection"]["mechanism"] == "builtin" and c["selection"]["verified"], str(c["selection"]))


def test_emulated_network(tmp):
    # The namespace recipe from scripts/emulated-net.sh, under a name of the test's own.
    if os.geteuid() != 0 or not shutil.which("ip"):
        print("SKIP emulated_network: needs root and iproute2")
        sys.exit(77)
    netns = f"pico-test-{os.getpid()}"
    script = os.path.join(SRC, "scripts", "emulated-net.sh")
    subprocess.run(["bash", script, "start", "1gbit", netns], check=True, capture_output=True)
    try:
        platform = write(tmp, "slow.yaml", f"""\
            name: slow
            launcher:
              command: mpirun
              wrapper: [ip, netns, exec, {netns}]
              args: [--mca, btl, "self,tcp", --mca, btl_tcp_if_include, lo, --mca, pml, ob1]
            mpi: {{library: openmpi}}
            """)
        proc = pico("bench", "allreduce", "--np", "2", "--sizes", "4MiB", "--time-budget", "300ms", "-p", platform,
                    "-o", os.path.join(tmp, "results"), cwd=tmp)
        expect(proc.returncode == 0, proc.stderr[-2000:])
        report = load(report_path(proc))
        expect(report["provenance"]["launch_commands"][0][:4] == ["ip", "netns", "exec", netns], "wrapped launcher")
        case = report["cases"][0]
        # 2 ranks x 4 MiB each way through one 1 Gbit/s bucket cannot take less than ~67 ms; shared memory takes ~3 ms.
        expect(case["timing"]["median_s"] > 0.03, f"median {case['timing']['median_s']} s: not on the slow link")
    finally:
        subprocess.run(["bash", script, "stop", netns], capture_output=True)


def test_phases(tmp):
    # Rabenseifner's two phases, timed per phase, with a PAPI software counter; a missing event is a note.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [256KiB]
        processes: [4]
        backends:
          - {library: mpi}
          - {library: reference, algorithms: [rabenseifner]}
        instrumentation: {phases: true, papi: [perf::TASK-CLOCK, PAPI_NO_SUCH_EVENT], calls: 5}
        """)
    expect(proc.returncode == 0, proc.stderr[-2000:])
    check_schema(report_path(proc))
    report = load(report_path(proc))
    library, reference = report["cases"]
    expect(library["phases"] == [] and "opaque" in library["phases_note"], "library collectives have no phases")
    names = [p["name"] for p in reference["phases"]]
    expect("reduce-scatter" in names and "allgather" in names, str(names))
    # perf::TASK-CLOCK needs PAPI's perf_event component, which some machines lack (papi_command_line
    # perf::TASK-CLOCK: "Event does not exist"); there the note must name it instead.
    task_clock = "perf::TASK-CLOCK" not in reference["phases_note"]
    if not task_clock:
        print("phases: perf::TASK-CLOCK is not available here (the note names it); counters not checked")
    for p in reference["phases"]:
        if p["name"] in ("reduce-scatter", "allgather"):
            expect(p["time_s"] > 0 and (not task_clock or p["counters"]["perf::TASK-CLOCK"] > 0), str(p))
    expect("PAPI_NO_SUCH_EVENT" in reference["phases_note"], reference.get("phases_note", ""))


def expect_compression_metrics(c):
    """What a compressed allreduce case reports on the CPU and on the GPU alike
    (the experiments take top-k at 5%); returns its phase names."""
    m = c["compression"]
    names = [p["name"] for p in c["phases"]]
    expect("communicate" in names and all(p["time_s"] >= 0 for p in c["phases"]), str(names))
    if c["algorithm"] == "global_qsgd" and c["params"]["bits"] == 8:
        expect(abs(m["bits_per_element"] - (8 + 32 / c["count"])) < 1e-9, str(m))
        expect(m["mse"] <= 1.2 * m["mse_bound"], str(m))
    if c["algorithm"] == "dense":
        expect(m["rel_l2_error"] < 1e-6 and m["compression_ratio"] == 1, str(m))
    if c["algorithm"] == "topk":
        k = -(-c["count"] * 5 // 100)
        expect(m["parameters"]["k"] == k and abs(m["bits_per_element"] - 64 * k / c["count"]) < 1e-9, str(m))
    return names


def test_compressed(tmp):
    # Compressed allreduce beside dense in one launch: every case within its
    # guarantee, identical on all ranks, with its breakdown and metrics; then
    # `pico compare` on the one report.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [4KiB, 256KiB]
        dtypes: [float32, int32]
        processes: [3]
        backends:
          - library: compressed
            algorithms: [dense, global_qsgd, global_qsgd_ring, global_qsgd_exponential, topk, topk_sparse]
            params: {bits: [8, 16], topk_ratio: [5%]}
            inputs: {distribution: student_t, correlation: correlated, rho: 0.5, dof: 4, seed: 3}
            bias_calls: 4
        """)
    expect(proc.returncode == 0, proc.stderr[-3000:])
    check_schema(report_path(proc))
    report = load(report_path(proc))
    ok = [c for c in report["cases"] if c["status"] == "ok"]
    skipped = [c for c in report["cases"] if c["status"] == "skipped"]
    expect(len(ok) == 2 * 8 and len(skipped) == 2 * 8, f"{len(ok)} ok, {len(skipped)} skipped")
    expect(all("float32" in c["reason"] for c in skipped), "int32 cases skipped for their dtype")
    for c in ok:
        m = c["compression"]
        expect(c["validation"]["status"] == "passed" and m["identical_across_ranks"], str(c))
        expect(m["inputs"] == {"distribution": "student_t", "correlation": "correlated", "seed": 3, "rho": 0.5,
                               "dof": 4.0}, str(m["inputs"]))
        names = expect_compression_metrics(c)
        if c["algorithm"].startswith("global_qsgd"):
            expect(names[:2] == ["norm", "compress"] and "decompress" in names, str(names))
            expect(m["rel_l2_error"] > 0 and m["scale"] > 0, str(m))
    compare = pico("compare", os.path.dirname(report_path(proc)))
    expect(compare.returncode == 0, compare.stderr)
    expect("compressed/global_qsgd[bits=8]" in compare.stdout and "compressed/dense" in compare.stdout, compare.stdout)
    rows = json.loads(pico("compare", report_path(proc), "--format", "json").stdout)
    expect(len(rows) == 2 * 7, f"{len(rows)} rows: every compressed case against dense at its size")
    expect(all(r["speedup"] > 0 and r["compression"] is not None for r in rows), str(rows[0]))
    bad = pico("compare", report_path(proc), "--baseline-case", "mpi:nothing")
    expect(bad.returncode == 2 and "no size has both" in bad.stderr, bad.stderr)


def test_list(tmp):
    libs = pico("list", "libraries")
    expect(libs.returncode == 0 and "openmpi" in libs.stdout and "mpich" in libs.stdout, libs.stdout)
    algs = pico("list", "algorithms", "--library", "openmpi", "--collective", "bcast")
    expect("scatter_allgather_ring" in algs.stdout and "coll_tuned_bcast_algorithm=9" in algs.stdout, algs.stdout)
    expect(pico("list", "algorithms", "--library", "nope").returncode == 2, "unknown library is bad input")
    doc = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "gen_algorithms_doc.py"), "--check", "--pico",
                          PICO], capture_output=True, text=True)
    expect(doc.returncode == 0, doc.stderr + doc.stdout)


def nccl_status():
    """The status line `pico list backends` prints under nccl."""
    lines = pico("list", "backends").stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("nccl "))
    return lines[at + 1].strip()


def run_nccl_experiment(tmp, experiment, *extra, timing=FAST_TIMING):
    """Runs `experiment` (formatted with np) on every GPU here, or on 2 ranks
    without one (every case then fails: pico exits 1); skips (77) where pico
    has no NCCL backend. Returns (has_device, np, the schema-valid report)."""
    status = nccl_status()
    if status.startswith("not built"):
        print("SKIP: this pico has no NCCL backend")
        sys.exit(77)
    has_device = "no device" not in status
    np = int(re.search(r"(\d+) devices?:", status).group(1)) if has_device else 2
    proc = run_experiment(tmp, experiment.format(np=np), *extra, timing=timing)
    return has_device, np, checked_report(proc, 0 if has_device else 1)


def ran_on_device(has_device, ran):
    """Without a GPU, every case that ran failed for want of one (False); with
    one, every case validated (True)."""
    if not has_device:
        expect(all(c["status"] == "failed" and "no CUDA device" in c["reason"] for c in ran),
               str({c["reason"] for c in ran}))
        return False
    for c in ran:
        expect(c["status"] == "ok" and c["validation"]["status"] == "passed", f"{c['case_id']}: {c['reason']}")
    return True


def nccl_expected_to_build():
    """What cmake/PicoCuda.cmake's AUTO mode finds on this machine."""
    nvcc = shutil.which("nvcc") or (os.path.exists("/usr/local/cuda/bin/nvcc") and "/usr/local/cuda/bin/nvcc")
    return bool(nvcc) and os.path.exists("/usr/local/cuda/include/nccl.h")


def test_list_backends(tmp):
    status = nccl_status()
    if nccl_expected_to_build():
        expect(re.match(r"built \(NCCL 2\.\d+\.\d+, CUDA \d+\.\d+\)", status), status)
        has_gpu = os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")
        expect(("no device" in status) != has_gpu, f"{status!r} on a machine with{'' if has_gpu else 'out'} a GPU")
    else:
        expect(status.startswith("not built"), status)
    algs = pico("list", "algorithms", "--library", "nccl", "--collective", "allreduce")
    expect("NCCL_ALGO=Ring" in algs.stdout and "nvls_tree" in algs.stdout, algs.stdout)
    lines = pico("list", "backends").stdout.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("nccl_compressed ")), None)
    expect(at is not None and lines[at + 1].strip() == status, "nccl_compressed listed with the nccl status")


NCCL_EXPERIMENT = """\
    collectives: [allreduce, allgather, reduce_scatter, bcast, alltoall, alltoallv, sendrecv, barrier]
    sizes: [8B, 4KiB, 1MiB]
    count_matrix: [uniform, {{pattern: random, seed: 3}}]
    dtypes: [float32, bfloat16, float16, int8, int16]
    ops: [sum, max]
    in_place: both
    processes: [{np}]
    backends:
      - library: nccl
        algorithms: [default, ring_simple, pat]
    """


def test_nccl(tmp):
    # Without a GPU (CI): every NCCL case fails with the reason and the rest
    # of the report stands; with one (np = the GPU count): every case validates.
    has_device, np, report = run_nccl_experiment(tmp, NCCL_EXPERIMENT)
    skipped = cases_by(report, status="skipped")
    reasons = {c["reason"] for c in skipped}
    allowed = (r"nccl has no (int16 datatype|barrier)|requires !in_place|has no algorithm '(pat|ring_simple)' for"
               r"|one-rank collective as a local copy")
    expect(all(re.search(allowed, r) for r in reasons), str(reasons))
    expect(any("nccl has no int16 datatype" in r for r in reasons), str(reasons))
    expect(any("nccl has no barrier" in r for r in reasons), str(reasons))
    expect(any("grouped send/recv" in r for r in reasons), "in-place alltoall is skipped")
    expect(any("no algorithm 'pat' for allreduce" in r for r in reasons), str(reasons))
    expect(any("no algorithm 'ring_simple' for sendrecv" in r for r in reasons), str(reasons))
    ran = [c for c in report["cases"] if c["status"] != "skipped"]
    sendrecv = [c for c in ran if c["collective"] == "sendrecv"]
    expect(sendrecv and all(c["algorithm"] == "default" and not c["in_place"] for c in sendrecv),
           "sendrecv is planned as default, out of place")
    expect(any(c["dtype"] == "bfloat16" and c["in_place"] for c in ran), "bfloat16 and in-place cases are planned")
    forced = [c for c in ran if c["algorithm"] == "ring_simple"]
    if np == 1:  # NCCL ignores NCCL_ALGO on one rank: forced algorithms are skipped with the reason
        expect(not forced and any("one-rank collective" in r for r in reasons), str(reasons))
    else:
        expect(forced and all(c["selection"]["verify"] == "environment" for c in forced), str(forced[:1]))
    if not ran_on_device(has_device, ran):
        expect("gpu" in report["provenance"] and report["provenance"]["gpu"]["devices"] == [], str(report["provenance"]))
        return
    for c in ran:
        expect(c["device"]["ranks"] == np and c["busbw_GBps"] is not None, str(c["device"]))
        if c["algorithm"] == "ring_simple":
            expect("NCCL_PROTO=Simple" in c["selection"]["applied"], str(c["selection"]))
        # What NCCL logged it ran for the checked call (rank 0): tuned collectives only.
        reported = c["selection"]["reported"]
        if np == 1:
            expect(reported["choices"] == [] and reported["note"].startswith("one rank"), str(reported))
        elif c["collective"] in ("allreduce", "allgather", "reduce_scatter", "bcast", "reduce"):
            expect(reported["source"] == "nccl_debug_tuning" and reported["choices"], str(reported))
            if c["algorithm"] == "ring_simple":
                expect(all((x["algorithm"], x["protocol"]) == ("RING", "SIMPLE") for x in reported["choices"]),
                       str(reported))


NCCL_SINGLE_PROCESS_EXPERIMENT = """\
    collectives: [allreduce, allgather, reduce_scatter, bcast, alltoall, sendrecv]
    sizes: [8B, 1MiB]
    dtypes: [float32, bfloat16]
    in_place: both
    processes: [{np}]
    backends:
      - library: nccl
        gpus_per_process: {np}
    """


def test_nccl_single_process(tmp):
    # One process drives every GPU (gpus_per_process = np, as nccl-tests' -g):
    # each launch starts one MPI process, through mpirun -np 1 or, with the
    # local-direct platform, without a launcher. Without a GPU (CI, np = 2)
    # every case fails with the reason; with GPUs every case validates.
    for platform in ([], ["-p", "local-direct"]):
        has_device, np, report = run_nccl_experiment(tmp, NCCL_SINGLE_PROCESS_EXPERIMENT, *platform)
        launches = report["provenance"]["launches"]
        expect(launches and all(len(launch["ranks"]) == 1 for launch in launches), str(launches))
        commands = report["provenance"]["launch_commands"]
        if platform:
            expect(commands and all(os.path.basename(cmd[0]) == "pico-worker" for cmd in commands), str(commands))
        else:
            expect(commands and all(cmd[cmd.index("-np") + 1] == "1" for cmd in commands), str(commands))
        ran = [c for c in report["cases"] if c["status"] != "skipped"]
        expect(ran and all(c["np"] == np for c in ran), "the cases keep np ranks")
        if np > 1:
            expect(all(c["options"] == {"gpus_per_process": str(np)} for c in ran), str(ran[0].get("options")))
        if ran_on_device(has_device, ran):
            expect(all(c["device"]["ranks"] == np and c["device"]["gpus_per_process"] == np for c in ran),
                   str(ran[0]["device"]))


def test_direct_launch(tmp):
    # The local-direct platform starts the worker without mpirun: an MPI
    # singleton that measures and validates; a plan needing 2 processes per
    # launch is bad input before anything starts.
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast, alltoall]
        sizes: [8B, 64KiB]
        processes: [1]
        """, "-p", "local-direct")
    report = checked_report(proc)
    commands = report["provenance"]["launch_commands"]
    expect(commands and all(os.path.basename(cmd[0]) == "pico-worker" for cmd in commands), str(commands))
    expect(len(report["cases"]) == 6 and all(c["status"] == "ok" and c["validation"]["status"] == "passed"
                                             for c in report["cases"]), str([c["reason"] for c in report["cases"]]))
    bad = run_experiment(tmp, "collectives: [allreduce]\nsizes: [8B]\nprocesses: [1, 2]\n", "-p", "local-direct")
    expect(bad.returncode == 2 and "one process per launch, but a launch of this experiment needs 2" in bad.stderr,
           bad.stderr)


def test_mpi_mismatch(tmp):
    # A platform that names MPICH but starts Open MPI's pico-worker under Open
    # MPI's mpirun: the worker meets another library than the plan's, so it
    # measures nothing and fails every case of the launch, naming both.
    worker = os.path.join(os.path.dirname(PICO), "pico-worker")
    as_root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    platform = write(tmp, "wrong-mpi.yaml", f"""\
        name: wrong-mpi
        scheduler: local
        launcher: {{kind: mpirun, command: mpirun, args: {json.dumps(as_root)}}}
        worker: {worker}
        mpi: {{library: mpich}}
        """)
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast]
        sizes: [8B, 1KiB]
        processes: [2]
        """, "-p", platform)
    report = checked_report(proc, exit_code=1)
    expect(len(report["cases"]) == 4, str(len(report["cases"])))
    for c in report["cases"]:
        expect(c["status"] == "failed" and c["timing"] is None and c["library"] == "openmpi", json.dumps(c)[:800])
        expect("MPI library mismatch" in c["reason"] and "planned for mpich" in c["reason"]
               and "the worker runs openmpi" in c["reason"], c["reason"])
    provenance = report["provenance"]
    expect(provenance["mpi"]["library"] == "openmpi", str(provenance["mpi"]))
    planned = provenance["mpi_planned"]
    expect(planned["library"] == "mpich" and planned["launcher"]["library"] == "openmpi", str(planned))
    expect(report["run"]["launches"] == 1, "one launch, not relaunched")


NCCL_COMPRESSED_EXPERIMENT = """\
    collectives: [allreduce]
    sizes: [4KiB, 256KiB]
    dtypes: [float32, int32]
    in_place: both
    processes: [{np}]
    backends:
      - library: nccl_compressed
        algorithms: [dense, global_qsgd, topk]
        params: {{bits: [8, 16], topk_ratio: [5%], error_feedback: [0, 1]}}
        inputs: {{distribution: student_t, correlation: correlated, rho: 0.5, dof: 4, seed: 3}}
        bias_calls: 4
    """


def test_nccl_compressed(tmp):
    # Without a GPU (CI): every case fails with "no CUDA device" and the report
    # stands; with one (np = the GPU count): every case validates and carries
    # its `compression` metrics and device-timed `phases`.
    has_device, np, report = run_nccl_experiment(tmp, NCCL_COMPRESSED_EXPERIMENT)
    reasons = {c["reason"] for c in cases_by(report, status="skipped")}
    allowed = r"takes float32 input|requires !in_place|NCCL has no 16-bit integer type"
    expect(all(re.search(allowed, r) for r in reasons), str(reasons))
    expect(any("requires bits != 16" in r for r in reasons), str(reasons))
    ran = [c for c in report["cases"] if c["status"] != "skipped"]
    # Two sizes: dense, global_qsgd bits 8, topk with and without error feedback.
    expect(len(ran) == 2 * 4, f"{len(ran)} cases ran")
    expect(all(c["dtype"] == "float32" and not c["in_place"] for c in ran), "float32 out of place only")
    if not ran_on_device(has_device, ran):
        return
    for c in ran:
        m = c["compression"]
        expect(m["identical_across_ranks"] and m["algorithm"] == c["algorithm"], str(m))
        expect(c["device"]["ranks"] == np, str(c["device"]))
        names = expect_compression_metrics(c)
        # NCCL's own log of its calls in the checked call: which functions, in order.
        # (none on one rank: NCCL runs a one-rank call as a local copy, untuned).
        functions = [x["function"] for x in c["selection"]["reported"]["choices"]]
        expected = {"dense": ["AllReduce"], "global_qsgd": ["AllReduce", "AllReduce"], "topk": ["AllGather"]}
        expect(functions == (expected[c["algorithm"]] if np > 1 else []), f"{c['algorithm']}: {functions}")
        if c["algorithm"] == "global_qsgd":
            expect(names == ["norm", "compress", "communicate", "decompress"], str(names))
            expect(m["parameters"]["bits"] == 8 and m["parameters"]["communicate"] == "nccl", str(m))
        if c["algorithm"] == "topk":
            expect(("error_feedback" in names) == bool(c["params"]["error_feedback"]), str(names))


NCCL_SAMPLING_EXPERIMENT = """\
    collectives: [allreduce]
    sizes: [8B, 1MiB]
    processes: [{np}]
    backends:
      - {{library: nccl, algorithms: [default], rotate_buffers: 64MiB}}
      - library: nccl_compressed
        algorithms: [global_qsgd, topk]
        params: {{bits: [8], topk_ratio: [1%], error_feedback: [1]}}
    """


def test_nccl_sampling(tmp):
    # Throughput samples as nccl-tests takes them: calls_per_sample calls
    # timed together, or one replay of a CUDA graph of that many calls (the
    # dense NCCL call, its buffers moving through 64 MiB, and the compressed
    # allreduce's kernels and NCCL calls alike). Without a GPU every case fails
    # for want of one and the report stands; with one, every case validates
    # and says how it was sampled.
    for sampling, method in (("calls_per_sample: 7", "batch"), ("graph: 7", "graph")):
        timing = ("timing: {mode: throughput, warmup: 2, min_iterations: 5, max_iterations: 5, time_budget: 1s, "
                  f"case_timeout: 60s, {sampling}}}\n")
        has_device, np, report = run_nccl_experiment(tmp, NCCL_SAMPLING_EXPERIMENT, timing=timing)
        ran = [c for c in report["cases"] if c["status"] != "skipped"]
        expect(len(ran) == 6, f"{len(ran)} cases ran")
        dense = [c for c in ran if c["backend"] == "nccl"]
        expect(dense and all(c["options"] == {"rotate_buffers": str(64 << 20)} for c in dense),
               str([c["options"] for c in dense]))
        if not ran_on_device(has_device, ran):
            continue
        for c in ran:
            expect(c["timing_method"] == method and c["calls_per_sample"] == 7 and c["iterations"] == 5,
                   f"{c['case_id']}: {c.get('timing_method')} {c.get('calls_per_sample')} {c['iterations']}")
            expect(0 < c["timing"]["median_s"] < 0.1, str(c["timing"]))


# The one error format: "pico: error: WHERE: WHAT", then optional "  hint: ..." lines.
ERROR_FORMAT = re.compile(r"^pico: error: \S.*?: \S.*(\n  \S.*)*\n?$")


def expect_bad_input(pattern, *args, env=None, cwd=None):
    """pico ARGS exits 2 with a message in the one error format matching pattern on stderr."""
    proc = pico(*args, env=env, cwd=cwd)
    expect(proc.returncode == 2, f"{' '.join(args)}: exit {proc.returncode}, want 2\n{proc.stderr}")
    expect(ERROR_FORMAT.match(proc.stderr), f"{' '.join(args)}: not in the one error format: {proc.stderr!r}")
    expect(re.search(pattern, proc.stderr), f"{' '.join(args)}: message {proc.stderr!r} !~ {pattern!r}")


def hostile_platform_names(tmp):
    # The platform name becomes results/<name>/: none may lead out of -o.
    for name in ['"/elsewhere/x"', "../../x", "a/b", '"a b"']:
        path = write(tmp, "p.yaml", f"name: {name}\nlauncher: {{command: mpirun}}\n")
        expect_bad_input(r"pico: error: \S*p\.yaml:1:7: platform name .* it becomes a directory name\n  hint: ",
                         "bench", "allreduce", "--sizes", "8B", "-p", "./p.yaml", "-o", "out", cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "out")), "a bad platform name runs nothing")


def unreadable_inputs(tmp):
    # Refused before reading: /dev/zero would otherwise be read until memory runs out.
    expect_bad_input(r"^pico: error: /dev/zero: the experiment file is a FIFO, device or socket, not a regular file\n"
                     r"  hint: give a YAML file of at most 16 MiB", "validate", "/dev/zero")
    expect_bad_input(r"^pico: error: /dev/zero: is a FIFO, device or socket", "report", "/dev/zero")
    path = os.path.join(tmp, "nul.yaml")
    with open(path, "wb") as f:
        f.write(b'collectives: [allreduce]\nsizes: [8B]\nname: "a\x00e"\n')
    expect_bad_input(r"nul\.yaml:3:9: the file contains a NUL byte\n  hint: ", "validate", path)


def missing_launcher(tmp):
    # Found at planning, not as exit 127 from every case.
    platform = write(tmp, "nompi.yaml", "name: nompi\nlauncher: {command: /no/such/mpirun}\n")
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    for verb in (["validate", quickstart, "-p", platform], ["run", quickstart, "-p", platform, "--dry-run"],
                 ["bench", "allreduce", "-p", platform, "-o", "out"]):
        expect_bad_input(r"nompi\.yaml: launcher command '/no/such/mpirun' is not an executable file\n"
                         r"  hint: ", *verb, cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "out")), "a missing launcher runs nothing")


def absurd_process_counts(tmp):
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    for verb in (["run", quickstart, "--np", "100000", "--dry-run"], ["bench", "allreduce", "--np", "100000"]):
        expect_bad_input(r"platforms/local\.yaml: a launch of 100000 processes is more than this platform "
                         r"starts on this host \(\d+ = 64 x its \d+ cores\)\n  hint: .*max_processes",
                         *verb, cwd=tmp)


def test_bad_input(tmp):
    cases = {
        "indent.yaml": ("collectives: [allreduce]\nsizes:\n  - 8B\n - 16B\n", r"indent\.yaml:4:\d+: "),
        "unknown.yaml": ("collectives: [allreduce]\nsizez: [8B]\n", r"unknown\.yaml:2:1: .*\n  hint: .*'sizes'"),
        "unit.yaml": ("collectives: [allreduce]\nsizes: 8Q\n", r"unit\.yaml:2:8: .*'Q'"),
        "np.yaml": ("collectives: [allreduce]\nsizes: [8B]\nprocesses: [0]\n", r"np\.yaml:3:13: "),
        "testonly.yaml": ("collectives: [allreduce]\nsizes: [8B]\nbackends: [{library: fault, algorithms: [crash]}]\n",
                          r"PICO_ENABLE_TEST_BACKENDS"),
    }
    env = {"PICO_ENABLE_TEST_BACKENDS": ""}
    for name, (text, pattern) in cases.items():
        path = write(tmp, name, text)
        for verb in (["validate", path], ["run", path, "-o", os.path.join(tmp, "results")]):
            expect_bad_input(pattern, *verb, env=env, cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "results")), "bad input runs nothing")
    hostile_platform_names(tmp)
    unreadable_inputs(tmp)
    missing_launcher(tmp)
    absurd_process_counts(tmp)
    ok = pico("validate", os.path.join(SRC, "configs", "quickstart.yaml"), os.path.join(SRC, "platforms", "local.yaml"))
    expect(ok.returncode == 0 and ok.stdout.count(": ok") == 2, ok.stdout + ok.stderr)
    missing = pico("run", os.path.join(tmp, "nope.yaml"))
    expect(missing.returncode == 2, "missing file is bad input")
    no_verb = pico()
    expect(no_verb.returncode == 2, "no verb is bad input")
    expect(pico("--version").stdout.startswith("pico "), "--version")
    expect(pico("run", "--help").returncode == 0, "--help")
    expect(pico("report", "--version").stdout.startswith("pico "), "--version on a verb")
    expect(pico("run", os.path.join(SRC, "configs", "quickstart.yaml"), "--np", "0").returncode == 2, "--np 0")


def test_dry_run(tmp):
    proc = pico("run", os.path.join(SRC, "configs", "quickstart.yaml"), "--dry-run", "--np", "3", cwd=tmp)
    expect(proc.returncode == 0, proc.stderr)
    expect("217 cases (0 skipped) in 1 launch group(s)" in proc.stdout, proc.stdout[:300])
    expect(re.search(r"mpirun -np 3 .*--oversubscribe.*pico-worker --launch RESULTS_DIR/launch-0.json", proc.stdout)
           or re.search(r"mpirun -np 3 .*pico-worker --launch", proc.stdout), "launch command shown")
    expect(not os.path.exists(os.path.join(tmp, "results")), "dry run writes nothing")


def test_resume(tmp):
    # A local run stopped mid-sweep (SIGTERM), then --resume: only what is not ok runs again.
    # 200000 iterations make every case last 0.1-0.2 s here, so the signal lands mid-sweep.
    results = os.path.join(tmp, "run")
    path = write(tmp, "experiment.yaml", """\
        collectives: [allreduce, bcast]
        sizes: {from: 8B, to: 8KiB, factor: 2}
        processes: [2]
        timing: {warmup: 1, min_iterations: 200000, max_iterations: 200000, time_budget: 200ms, target_ci: 0.01%}
        """)
    proc = subprocess.Popen([PICO, "run", path, "--dir", results, "-q"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp)
    cases_file = os.path.join(results, "cases.jsonl")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (os.path.exists(cases_file) and len(open(cases_file).readlines()) >= 3):
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    expect(proc.returncode == 1, f"interrupted run exits 1, got {proc.returncode}")
    first = load(os.path.join(results, "report.json"))
    done = {c["case_id"] for c in first["cases"] if c["status"] == "ok"}
    expect(3 <= len(done) < 22, f"{len(done)} of 22 cases finished before SIGTERM")
    resumed = pico("run", "--resume", results, "-q", cwd=tmp)
    expect(resumed.returncode == 0, f"resume: exit {resumed.returncode}\n{resumed.stderr[-2000:]}")
    check_schema(report_path(resumed), "--expect-status", "ok", "--expect-cases", "22")
    ok_lines = [json.loads(line) for line in open(cases_file) if '"status":"ok"' in line]
    expect(len(ok_lines) == 22 and len({r["case_id"] for r in ok_lines}) == 22, "each case measured ok exactly once")
    final = load(report_path(resumed))
    expect(final["run"]["launches"] == 2 and len(final["run"]["resumed_utc"]) == 1, "the resume is one more launch")
    expect(pico("run", "--resume", results, "configs/quickstart.yaml").returncode == 2, "--resume takes no experiment")


def test_oversubscribed(tmp):
    # Issue 36: --np 8 on 2 cores ran without a word, and tune/compare then reported descheduling as
    # speedups. Twice as many ranks as this machine's cores: said by the run, recorded in the report,
    # and carried as a warning into tune, compare and report; one rank is never oversubscribed.
    cores = len(os.sched_getaffinity(0))
    over = run_experiment(tmp, f"""\
        collectives: [allreduce]
        sizes: [1KiB]
        processes: [1, {2 * cores}]
        backends: [{{library: mpi, algorithms: [default, ring]}}]
        """, "-q")
    expect(over.returncode == 0, over.stderr)
    warning = re.compile(r"^pico: warning: \S+: oversubscribed \(launch \d+: " + str(2 * cores)
                         + r" ranks on host \S+ with \d+ cores\)", re.M)
    expect(warning.search(over.stderr), f"the run says so: {over.stderr!r}")
    report = load(report_path(over))
    found = report["provenance"]["oversubscribed"]
    expect([o["ranks"] for o in found] == [2 * cores] and all(o["ranks"] > o["cores"] for o in found), str(found))
    results = os.path.dirname(report_path(over))
    for verb in (["tune", results, "-o", os.path.join(tmp, "p.json")], ["compare", results], ["report", results]):
        proc = pico(*verb, cwd=tmp)
        expect(proc.returncode == 0 and warning.search(proc.stderr), f"{verb[0]}: exit {proc.returncode} {proc.stderr!r}")
    alone = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [8B]
        processes: [1]
        """, "-q")
    expect(alone.returncode == 0 and "oversubscribed" not in alone.stderr, alone.stderr)
    expect(load(report_path(alone))["provenance"]["oversubscribed"] == [], "one rank on one core")


def test_bench(tmp):
    proc = pico("bench", "allreduce", "--np", "2", "--sizes", "8B:64B", "--dtype", "int32", "--op", "max",
                "--time-budget", "20ms", "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, proc.stderr)
    report = load(report_path(proc))
    expect([c["bytes"] for c in report["cases"]] == [8, 16, 32, 64], "four sizes")
    expect(all(c["dtype"] == "int32" and c["op"] == "max" and c["status"] == "ok" for c in report["cases"]), "flags")
    # The equivalent experiment is kept, so `pico run` can repeat the bench.
    again = pico("validate", os.path.join(os.path.dirname(report_path(proc)), "experiment.yaml"))
    expect(again.returncode == 0, again.stderr)
    expect_bad_input(r"^pico: error: --sizes: bad size list '8Q'", "bench", "allreduce", "--sizes", "8Q")
    # Flag values are data, never YAML text: commas and colons do not change the experiment.
    expect_bad_input(r"^pico: error: pico bench: unknown collective 'allreduce, bcast'", "bench", "allreduce, bcast")
    expect_bad_input(r"^pico: error: --time-budget: .*'20ms, keep_samples: true, warmup: 0'", "bench", "allreduce",
                     "--time-budget", "20ms, keep_samples: true, warmup: 0")
    expect_bad_input(r"^pico: error: --dtype: unknown dtype 'flaot32'\n  hint: did you mean 'float32'\?", "bench",
                     "allreduce", "--dtype", "flaot32")
    expect_bad_input(r"^pico: error: --algorithm: ", "bench", "allreduce", "--algorithm", "[ring, linear]")
    expect_bad_input(r"^pico: error: -f: a step factor without -b or -e", "bench", "allreduce", "-f", "4")
    expect_bad_input(r"^pico: error: pico bench: .*--sizes excludes", "bench", "allreduce", "--sizes", "8B", "-m", "1K")


def test_bench_sampling_flags(tmp):
    # How samples are taken, from pico bench's flags: throughput samples of 20
    # calls (nccl-tests' -n) or --calls-per-sample N, timed with MPI_Wtime on
    # host backends and reported per case; -G N is nccl-tests' graph replays
    # (N samples of -n calls, throughput unless --mode says otherwise), for
    # the GPU backends only.
    batch = pico("bench", "allreduce", "--np", "2", "--sizes", "8B,4KiB", "--mode", "throughput", "-i", "4",
                 "-o", os.path.join(tmp, "batch"), cwd=tmp)
    report = checked_report(batch)
    expect(all(c["timing_method"] == "batch" and c["calls_per_sample"] == 20 and c["iterations"] == 4
               for c in report["cases"]), str([(c["timing_method"], c["calls_per_sample"]) for c in report["cases"]]))
    expect("sample: 20 back-to-back calls timed together, time / 20" in batch.stdout, batch.stdout[-300:])
    single = pico("bench", "allreduce", "--np", "2", "--sizes", "8B", "--mode", "throughput", "--calls-per-sample", "1",
                  "-i", "4", "-o", os.path.join(tmp, "single"), cwd=tmp)
    cases = checked_report(single)["cases"]
    expect(cases[0]["timing_method"] == "back_to_back" and cases[0]["calls_per_sample"] == 1, str(cases[0]))
    latency = pico("bench", "allreduce", "--np", "2", "--sizes", "8B", "-i", "4", "-o", os.path.join(tmp, "lat"), cwd=tmp)
    cases = checked_report(latency)["cases"]
    expect(cases[0]["timing_method"] == "barrier_each" and cases[0]["calls_per_sample"] == 1, str(cases[0]))
    expect_bad_input(r"^pico: error: --calls-per-sample: latency mode times every call on its own", "bench",
                     "allreduce", "--calls-per-sample", "5")
    expect_bad_input(r"^pico: error: -G: backend 'mpi' cannot be captured in a CUDA graph", "bench", "allreduce",
                     "-G", "3")
    if nccl_status().startswith("not built"):
        return
    # Planned without a GPU too (every case then fails for want of one): the experiment pico bench wrote.
    for extra, mode in (([], "throughput"), (["--mode", "latency"], "latency")):
        graph = pico("bench", "allreduce", "--backend", "nccl", "--np", "1", "--sizes", "8B", "-G", "3", "-n", "7",
                     *extra, "--dry-run", cwd=tmp)
        expect(graph.returncode == 0, graph.stderr)
        written = pico("bench", "allreduce", "--backend", "nccl", "--np", "1", "--sizes", "8B", "-G", "3", "-n", "7",
                       *extra, "-o", os.path.join(tmp, "graph-" + mode), "-q", cwd=tmp)
        experiment = load(report_path(written))["experiment"]["source"]
        expect(f"mode: {mode}" in experiment and "graph: 7" in experiment and "min_iterations: 3" in experiment,
               experiment)


def test_bench_osu_flags(tmp):
    # What OSU (-m, -i, -x) and nccl-tests (-b -e -f, -n, -w, -c) users type; 1K is 1024.
    osu = pico("bench", "allreduce", "--np", "2", "-m", "1K:4K", "-i", "7", "-x", "2", "-c", "1",
               "-o", os.path.join(tmp, "osu"), cwd=tmp)
    expect(osu.returncode == 0, osu.stderr)
    report = load(report_path(osu))
    expect([c["bytes"] for c in report["cases"]] == [1024, 2048, 4096], str([c["bytes"] for c in report["cases"]]))
    expect(all(c["iterations"] == 7 and c["warmup"] == 2 and c["validation"]["status"] == "passed"
               for c in report["cases"]), str(report["cases"][0]))
    header = next(line for line in osu.stdout.splitlines() if line.startswith("size"))
    expect(re.search(r"min\(us\)\s+median\(us\)\s+avg\(us\)\s+max\(us\)\s+algbw\(GB/s\)\s+busbw\(GB/s\)", header),
           header)
    row = next(line for line in osu.stdout.splitlines() if line.startswith("2KiB"))
    cells = row.split()
    t = report["cases"][1]["timing"]
    expect(all(abs(float(cells[k]) - t[key] * 1e6) < 0.01 for k, key in [(7, "min_s"), (8, "median_s"), (10, "max_s")]),
           f"{row} vs {t}")
    # The bandwidth is the median's (issue 36: the table showed avg and a bandwidth from an unshown median).
    algbw = report["cases"][1]["bytes"] / t["median_s"] / 1e9
    expect(abs(float(cells[11]) - algbw) < 0.01 + 0.01 * algbw, f"algbw {cells[11]} vs bytes/median {algbw}")
    expect("algbw and busbw from the median time" in osu.stdout, osu.stdout[-400:])
    nccl = pico("bench", "allreduce", "--np", "2", "-b", "8", "-e", "512", "-f", "8", "-n", "5", "-w", "1", "-c", "0",
                "-o", os.path.join(tmp, "nccl"), cwd=tmp)
    expect(nccl.returncode == 0, nccl.stderr)
    cases = load(report_path(nccl))["cases"]
    expect([c["bytes"] for c in cases] == [8, 64, 512], str([c["bytes"] for c in cases]))
    expect(all(c["iterations"] == 5 and c["validation"]["status"] == "skipped" for c in cases), str(cases[0]))
    # nccl-tests' own table: out-of-place and in-place side by side, #wrong, the closing lines (issue 36).
    table = pico("bench", "allreduce", "--np", "2", "-b", "8", "-e", "512", "-f", "8", "-n", "5", "-w", "1",
                 "--style", "nccl-tests", "-o", os.path.join(tmp, "nccl-style"), cwd=tmp)
    expect(table.returncode == 0, table.stderr)
    cases = load(report_path(table))["cases"]
    expect(sorted((c["bytes"], c["in_place"]) for c in cases) == [(b, p) for b in (8, 64, 512) for p in (False, True)],
           "both forms of every size measured")
    rows = [line.split() for line in table.stdout.splitlines() if re.match(r"^\s+\d+\s", line)]
    expect([int(r[0]) for r in rows] == [8, 64, 512] and all(len(r) == 13 for r in rows), str(rows))
    expect(all(r[8] == "0" and r[12] == "0" for r in rows), f"#wrong: {rows}")
    for r in rows:
        out, inp = (next(c for c in cases if c["bytes"] == int(r[0]) and c["in_place"] == p) for p in (False, True))
        expect(abs(float(r[5]) - out["timing"]["median_s"] * 1e6) < 0.006 and
               abs(float(r[9]) - inp["timing"]["median_s"] * 1e6) < 0.006, f"{r} vs the report's medians")
    avg = float(re.search(r"^# Avg bus bandwidth\s+: (\S+)$", table.stdout, re.M).group(1))
    mean = sum(c["busbw_GBps"] for c in cases) / len(cases)
    expect(abs(avg - mean) <= 1e-5 * max(mean, 1e-9) + 1e-9, f"average bus bandwidth {avg} vs {mean}")
    expect("# Out of bounds values : 0 OK" in table.stdout, table.stdout[-600:])


def test_one_error_format(tmp):
    # Every rejection, whatever reads it (CLI11, a verb, a report reader), in one format naming where and what.
    expect_bad_input(r"^pico: error: pico: unknown verb 'rnu'\n  hint: did you mean 'run'\?", "rnu")
    expect_bad_input(r"^pico: error: pico bench: .*--np", "bench", "allreduce", "--np", "x")
    expect_bad_input(r"^pico: error: --collective: unknown name 'allredcue'\n  hint: did you mean 'allreduce'\?",
                     "list", "algorithms", "--collective", "allredcue")
    expect_bad_input(r"^pico: error: --library: unknown name 'openmpii'", "list", "algorithms", "--library", "openmpii")
    other = write(tmp, "other.json", '{"schema": "someone-else/3", "cases": []}\n')
    expect_bad_input(r"other\.json: a report of schema 'someone-else/3', not pico-report/1", "report", other)
    newer = write(tmp, "newer.json", '{"schema": "pico-report/9", "cases": []}\n')
    expect_bad_input(r"newer\.json: a report of schema 'pico-report/9'.*\n  hint: use the pico version", "report", newer)
    broken = write(tmp, "broken.json", '{"schema": "pico-report/1",\n "cases": [}\n')
    expect_bad_input(r"broken\.json:2:\d+: not valid JSON: ", "report", broken)
    example = os.path.join(SRC, "tests", "data", "report-example.json")
    bad_case = json.load(open(example))
    bad_case["cases"][0]["np"] = "two"
    damaged = write(tmp, "damaged.json", json.dumps(bad_case))
    expect_bad_input(r"damaged\.json: malformed report: cases\[0\]: np: \"two\" is not a whole number from 1 to \d+",
                     "report", damaged)
    expect_bad_input(r"damaged\.json: malformed report", "compare", damaged)
    expect_bad_input(r"pico compare: no size has both.*\n  hint: name the baseline with --baseline-case BACKEND:ALGORITHM",
                     "compare", example, "--baseline-case", "mpi:nothing")
    # validate is told, or tells by the one key each kind must have; it does not guess.
    neither = write(tmp, "neither.yaml", "name: x\n")
    expect_bad_input(r"neither\.yaml: neither an experiment .*\n  hint: .*--as experiment\|platform", "validate", neither)
    expect_bad_input(r"neither\.yaml:1:1: the experiment is missing the required key 'collectives'", "validate",
                     "--as", "experiment", neither)
    as_platform = pico("validate", "--as", "platform", neither)
    expect(as_platform.returncode == 0 and "ok (platform 'x'" in as_platform.stdout, as_platform.stdout)
    experiment = os.path.join(SRC, "configs", "quickstart.yaml")
    expect_bad_input(r"quickstart\.yaml:\d+:1: unknown key 'collectives' in the platform", "validate",
                     "--as", "platform", experiment)
    ok = pico("validate", "--as", "experiment", experiment)
    expect(ok.returncode == 0 and ": ok (experiment" in ok.stdout, ok.stdout + ok.stderr)


HTML_EXPERIMENT = """\
    collectives: [allreduce]
    sizes: [2B, 1KiB, 64KiB]
    processes: [2, 3]
    backends:
      - {library: mpi, algorithms: [default, recursive_doubling, ring]}
      - {library: mpi, call: nonblocking}
      - {library: reference, algorithms: [rabenseifner]}
      - {library: compressed, algorithms: [dense, global_qsgd], params: {bits: [8]}}
    instrumentation: {phases: true, calls: 3}
    """


def chromium_dump(page, *extra):
    """The page's DOM once its scripts ran (headless chromium), and chromium's log."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--no-first-run", "--virtual-time-budget=60000", "--enable-logging=stderr", "--v=0",
                           "--window-size=1400,9000", *extra, "file://" + page],
                          capture_output=True, text=True, timeout=240)
    expect(proc.returncode == 0, f"chromium exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return proc.stdout, proc.stderr


def chart_divs(dom):
    """(kind, title, rendered, inner html) of each chart of the page, in page order."""
    starts = [m for m in re.finditer(r'<div class="pico-chart[^"]*" ([^>]*)>', dom)]
    out = []
    for i, m in enumerate(starts):
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', m.group(1)))
        end = starts[i + 1].start() if i + 1 < len(starts) else len(dom)
        out.append((attrs.get("kind"), attrs.get("title"), attrs.get("rendered"), dom[m.end():end]))
    return out


def expected_winners(report):
    """Per (np, bytes) of the allreduce cases: the algorithm label with the smallest median."""
    best = {}
    for c in report["cases"]:
        if c["status"] != "ok" or not c["timing"]:
            continue
        key = (c["np"], c["bytes"], c["dtype"])
        params = ";".join(f"{k}={v}" for k, v in sorted(c["params"].items()))
        call = c.get("options", {}).get("call")
        label = f"{c['backend']}/{c['algorithm']}" + (f"[{params}]" if params else "") + (f" ({call})" if call else "")
        if key not in best or c["timing"]["median_s"] < best[key][1]:
            best[key] = (label, c["timing"]["median_s"])
    return best


def test_html_report(tmp):
    # A real run drawn as the HTML page, rendered by headless chromium: every
    # chart drawn, no error, and the drawn values are the report's.
    vega_dir = os.environ.get("PICO_VEGA_DIR") or os.path.join(SRC, "third_party", "vega", "node_modules")
    if not shutil.which("chromium") and not shutil.which("chromium-browser"):
        print("SKIP html_report: no chromium (scripts/setup.sh installs it)", file=sys.stderr)
        sys.exit(77)
    if not os.path.exists(os.path.join(vega_dir, "vega", "build", "vega.min.js")):
        print(f"SKIP html_report: no vega in {vega_dir} (scripts/setup-vega.sh installs it)", file=sys.stderr)
        sys.exit(77)
    proc = run_experiment(tmp, HTML_EXPERIMENT)
    expect(proc.returncode == 0, proc.stderr[-3000:])
    results = os.path.dirname(report_path(proc))
    report = load(report_path(proc))
    expect(any(c["status"] == "skipped" for c in report["cases"]), "2B float32 is skipped")
    page = os.path.join(tmp, "report.html")
    # The same run twice stands for two machines: the page compares them.
    made = pico("report", results, report_path(proc), "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    html = open(page, encoding="utf-8").read()
    expect(not re.search(r"<script[^>]+src=|<link[^>]+href=", html), "self-contained: no external script or style")
    missing = pico("report", results, "--format", "html", "-o", os.path.join(tmp, "x.html"),
                   env={"PICO_VEGA_DIR": os.path.join(tmp, "nowhere")})
    expect(missing.returncode == 2 and re.match(r"pico: error: \S*nowhere/vega/build/vega\.min\.js: .*\n  hint: .*setup-vega",
                                                missing.stderr), missing.stderr)
    expect(not os.path.exists(os.path.join(tmp, "x.html")), "nothing written without the library")

    dom, log = chromium_dump(page, "--dump-dom")
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and ("rror" in line or "arn" in line)]
    expect(not console_errors, "console errors:\n" + "\n".join(console_errors))
    expect('data-pico-done="true"' in dom, "the page finished drawing")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "no drawing error: " + dom[dom.find("pico-errors"):][:600])
    charts = chart_divs(dom)
    count = int(re.search(r'data-pico-charts="(\d+)"', dom).group(1))
    expect(len(charts) == count and count > 0, f"{len(charts)} chart elements, {count} charts")
    kinds = {k for k, *_ in charts}
    expect({"status", "time", "busbw", "heatmap", "normalised", "phases", "compression", "tradeoff", "overlap",
            "reports"} <= kinds, str(kinds))
    for kind, title, rendered, inner in charts:
        expect(rendered == "true" and "<svg" in inner, f"{title}: not drawn")
        expect(len(re.findall(r'role="graphics-symbol"', inner)) > 0, f"{title}: no marks")
    # The heatmap writes each size's fastest algorithm: the report's.
    heat = next(inner for kind, _, _, inner in charts if kind == "heatmap")
    texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", heat))
    for (np, size, dtype), (label, _) in expected_winners(report).items():
        expect(label in texts, f"np={np} {size}B: winner {label} not drawn; drawn: {sorted(texts)}")
    # The time chart's points carry the medians drawn (their ARIA labels, µs).
    time_chart = next(inner for kind, _, _, inner in charts if kind == "time")
    drawn = [float(v.replace(",", "")) for v in re.findall(r"median \(µs\): ([0-9.,e+-]+)", time_chart)]
    medians = [c["timing"]["median_s"] * 1e6 for c in report["cases"] if c["status"] == "ok"]
    expect(drawn, "no median drawn")
    for d in drawn:
        expect(any(abs(d - m) <= 1e-3 * m for m in medians), f"{d} us drawn, not a median of the report")
    for m in medians:
        expect(any(abs(d - m) <= 1e-3 * m for d in drawn), f"median {m} us not drawn; drawn {sorted(drawn)[:20]}")
    # The overlap chart draws the non-blocking cases' overlap (OSU's definition), the report's values.
    overlap_chart = next(inner for kind, _, _, inner in charts if kind == "overlap")
    drawn = sorted(float(v) for v in re.findall(r"overlap \(%\): ([0-9.]+)", overlap_chart))
    measured = [c["overlap"]["percent"] for c in report["cases"] if c["status"] == "ok" and "overlap" in c]
    # 1 KiB and 64 KiB on 2 and 3 ranks (2 B of float32 is skipped), the page showing the report twice.
    expect(len(measured) == 4 and drawn, f"overlap drawn {drawn}, measured {measured}")
    for m in measured:
        expect(any(abs(d - round(m, 1)) < 0.051 for d in drawn), f"overlap {m}% not drawn; drawn {drawn}")
    for d in drawn:
        expect(any(abs(d - round(m, 1)) < 0.051 for m in measured), f"{d}% drawn, not an overlap of the report")
    check_readable(dom, charts)
    # The summary table answers first, with the report's numbers (issue 36).
    summary = summary_rows(dom)
    expect(dom.find('id="pico-summary"') < dom.find('class="pico-chart'), "the summary comes before the charts")
    for (np, size, dtype), (label, median) in expected_winners(report).items():
        rows = [r for r in summary if r["np"] == np and r["bytes"] == size and label in r["cells"]]
        expect(rows and any(abs(r["best_s"] - median) <= 1e-12 * median for r in rows),
               f"np={np} {size}B: summary {rows} lacks the winner {label} at {median} s")
    defaults = {(c["np"], c["bytes"], c["dtype"]): c["timing"]["median_s"] for c in report["cases"]
                if c["status"] == "ok" and c["backend"] == "compressed" and c["algorithm"] == "dense"}
    expect(any(r.get("reference_s") is not None for r in summary), "a default beside the fastest")
    for r in summary:
        if r.get("reference_s") is not None:
            expect(any(abs(r["reference_s"] - d) <= 1e-12 * d for d in defaults.values())
                   or any(abs(r["reference_s"] - c["timing"]["median_s"]) <= 1e-12 * c["timing"]["median_s"]
                          for c in report["cases"] if c["status"] == "ok"), f"default time {r} not the report's")
    # Oversubscription (np 3 on a 2-core machine) is said above the summary, per report (issue 51).
    if report["provenance"].get("oversubscribed"):
        warning = dom.find('class="warning"')
        expect(0 <= warning < dom.find('id="pico-summary"') and "oversubscribed" in dom[warning:warning + 800],
               "the oversubscription warning above the summary")
    # Provenance: rank 0's environment folds (a two-report page was 13,000 px); the GPUs by name, not raw JSON.
    provenance = dom[dom.find('class="provenance"'):]
    expect("<details>" in provenance and " lines: " in provenance, "the environment folds")
    expect(not re.search(r"GPU devices</th><td>\[", provenance), "GPU devices as names")
    shot = os.path.join(os.environ.get("PICO_HTML_SCREENSHOT_DIR", tmp), "html_report.png")
    chromium_dump(page, f"--screenshot={shot}")
    expect(os.path.getsize(shot) > 10000, "screenshot written")
    print(f"screenshot: {shot}")

    # A quickstart-like run, one algorithm per collective: the summary alone, no chart comparing nothing.
    single = run_experiment(tmp, """\
        collectives: [allreduce, barrier]
        sizes: [8B, 1KiB]
        processes: [2]
        """)
    expect(single.returncode == 0, single.stderr[-2000:])
    single_page = os.path.join(tmp, "single.html")
    made = pico("report", os.path.dirname(report_path(single)), "--format", "html", "-o", single_page)
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(single_page, "--dump-dom")
    expect('data-pico-done="true"' in dom, "the single-algorithm page finished drawing")
    expect(chart_divs(dom) == [], f"charts drawn for one algorithm: {[k for k, *_ in chart_divs(dom)]}")
    expect(len(summary_rows(dom)) == 3, f"summary rows: {summary_rows(dom)}")  # allreduce 8B, 1KiB; barrier


def summary_rows(dom):
    """The summary table's rows: np, bytes, the fastest's and the default's seconds, the cells' text."""
    table = dom[dom.find('id="pico-summary"'):]
    table = table[:table.find("</table>")]
    rows = []
    for m in re.finditer(r"<tr ([^>]*)>(.*?)</tr>", table, re.S):
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', m.group(1)))
        rows.append({"np": int(attrs["np"]), "bytes": int(attrs["bytes"]), "best_s": float(attrs["best-s"]),
                     "reference_s": float(attrs["reference-s"]) if "reference-s" in attrs else None,
                     "cells": re.findall(r"<td[^>]*>([^<]*)</td>", m.group(2))})
    return rows


def check_readable(dom, charts):
    """What the page measured of itself in the browser: nothing wider than the 1,400 px window, no
    axis label over another; and every chart offers its SVG and PNG (vega-embed's actions)."""
    width = int(re.search(r'data-pico-page-width="(\d+)"', dom).group(1))
    window = int(re.search(r'data-pico-window-width="(\d+)"', dom).group(1))
    expect(width <= window, f"the page is {width} px wide in a {window} px window")
    overlaps = int(re.search(r'data-pico-label-overlaps="(\d+)"', dom).group(1))
    examples = re.search(r'data-pico-label-overlap-examples="([^"]*)"', dom).group(1)
    expect(overlaps == 0, f"{overlaps} pairs of axis labels drawn over each other: {examples}")
    for kind, title, _, inner in charts:
        expect("vega-actions" in inner and "Save as SVG" in inner and "Save as PNG" in inner,
               f"{title}: no SVG/PNG export")


def test_results_dir_attacks(tmp):
    # Issue 35, findings 1 and 5: --resume never opens a file of the results directory through a link
    # planted there (exit 2, the target untouched); a launch record left empty by a full disk is a
    # launch not done; an edited plan.json or run.json is refused naming the file.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B, 128B]
        processes: [2]
        """)
    base = os.path.dirname(report_path(proc))
    outside = os.path.join(tmp, "outside.txt")
    host = [f for f in os.listdir(base) if f.startswith("topology-")] or ["topology-somehost.xml"]
    for name in [".lock", "cases.jsonl", "progress.jsonl", "launch-0.info.json", host[0], "launch-7.json"]:
        with open(outside, "w") as f:
            f.write("keep me\n")
        results = os.path.join(tmp, "planted")
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(base, results)
        target = os.path.join(results, name)
        if os.path.exists(target):
            os.remove(target)
        os.symlink(outside, target)
        expect_bad_input(re.escape(name) + r": a symbolic link in a results directory: pico does not open it\n  hint: ",
                         "run", "--resume", results, "-q")
        expect(open(outside).read() == "keep me\n", f"{name}: the link's target was written")
    # A full disk left the next launch's record empty: the resume runs the missing case in a new launch.
    results = os.path.join(tmp, "torn")
    shutil.copytree(base, results)
    lines = open(os.path.join(results, "cases.jsonl")).read().splitlines(keepends=True)
    with open(os.path.join(results, "cases.jsonl"), "w") as f:
        f.writelines(lines[:-1])
    open(os.path.join(results, "launch-1.json"), "w").close()
    resumed = pico("run", "--resume", results, "-q")
    expect(resumed.returncode == 0, f"resume after a full disk: exit {resumed.returncode}\n{resumed.stderr}")
    check_schema(report_path(resumed), "--expect-status", "ok", "--expect-cases", "2")
    # Edited records: named, in the one format, with no library's text; np is bounded, not cut to an int.
    for file, edit, pattern in [
            ("plan.json", lambda j: j["launch_groups"][0].update(np=10**12), r"plan\.json: not as pico writes it: "),
            ("plan.json", lambda j: j["launch_groups"][0].update(np=-2), r"plan\.json: not as pico writes it: "),
            ("plan.json", lambda j: j.pop("cases"), r"plan\.json: not as pico writes it: "),
            ("run.json", lambda j: j.pop("run"), r"run\.json: not as pico writes it: "),
            ("launch-0.json", lambda j: j.update(np="two"), r"launch-0\.json: not as pico writes it: "),
            # A case planned twice, or a record no measurement can give, was copied into a report
            # that pico report then refused (found by the results-directory fuzz).
            ("plan.json", lambda j: j["cases"].append(j["cases"][0]),
             r"plan\.json: not as pico writes it: case \S+ is planned twice"),
            ("cases.jsonl", lambda j: j["timing"].update(median_s=-1.0),
             r"cases\.jsonl: not as pico writes it: record 1 \(case \S+\): timing\.median_s is -1")]:
        results = os.path.join(tmp, "edited")
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(base, results)
        with open(os.path.join(results, "cases.jsonl"), "w") as f:
            f.writelines(lines[:-1])
        if file == "cases.jsonl":  # the first record edited, the rest kept
            records = [json.loads(line) for line in lines[:-1]]
            edit(records[0])
            with open(os.path.join(results, file), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
        else:
            doc = load(os.path.join(results, file))
            edit(doc)
            with open(os.path.join(results, file), "w") as f:
                json.dump(doc, f)
        if file == "launch-0.json":  # launch 0 unrecorded in run.json: the resume reads its record
            run = load(os.path.join(results, "run.json"))
            run["run"]["launch_log"] = []
            with open(os.path.join(results, "run.json"), "w") as f:
                json.dump(run, f)
        proc = pico("run", "--resume", results, "-q")
        expect(proc.returncode == 2 and "json.exception" not in proc.stderr and "map::at" not in proc.stderr
               and "-np -" not in proc.stderr, f"{file}: exit {proc.returncode}\n{proc.stderr}")
        expect(ERROR_FORMAT.match(proc.stderr) and re.search(pattern, proc.stderr), f"{file}: {proc.stderr!r}")


def test_hardened_inputs(tmp):
    # Issue 35, findings 2, 3, 4, 6, 9 and 10, through the command line.
    example = os.path.join(SRC, "tests", "data", "report-example.json")
    # A file that is no trace is refused by name, without printing it (issue 36: /etc/passwd was echoed whole).
    passwd = pico("replay", "/etc/passwd")
    expect(passwd.returncode == 2 and "root:" not in passwd.stderr and len(passwd.stderr) < 600, passwd.stderr[:800])
    # nccl-tests' `-o sum` silently became the results directory ./sum (issue 36).
    expect_bad_input(r"^pico: error: -o: 'sum' is a reduction operation \(nccl-tests' -o\).*\n  hint: give the "
                     r"operation with --op sum", "bench", "allreduce", "-o", "sum", "--dry-run", cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "sum")), "no ./sum made")
    # Issue 53, finding 10, and a crash found beside it: more warm-up calls (5) than samples (-i 2) wrote past the
    # samples' buffer and aborted the worker; --call '' ran blocking; count_matrix without alltoallv did nothing.
    few = pico("bench", "allreduce", "--np", "2", "--sizes", "8B", "-i", "2", "-o", os.path.join(tmp, "few"), cwd=tmp)
    expect(few.returncode == 0 and checked_report(few)["cases"][0]["iterations"] == 2, few.stdout[-600:] + few.stderr)
    expect_bad_input(r"^pico: error: --call: unknown call ''", "bench", "allreduce", "--call", "", "--dry-run")
    expect_bad_input(r"count_matrix applies to collectives with a count matrix.*\n  hint: add alltoallv", "validate",
                     write(tmp, "counts.yaml", "collectives: [allreduce]\nsizes: [8B]\ncount_matrix: [uniform]\n"))
    # Issue 51's loose ends: a bench whose --algorithm runs nowhere exits 2; a file that is no YAML is not echoed
    # whole.
    expect_bad_input(r"^pico: error: --algorithm: no case of 'rabenseifner' can run: .*no algorithm 'rabenseifner' for "
                     r"bcast", "bench",
                     "bcast", "--algorithm", "rabenseifner", "-m", "8:64", "--dry-run")
    passwd = write(tmp, "passwd", "".join(f"user{i}:x:{i}:{i}::/home/user{i}:/bin/sh\n" for i in range(40)))
    proc = pico("validate", passwd)
    expect(proc.returncode == 2 and len(proc.stderr) < 400 and "user39" not in proc.stderr, proc.stderr)
    # An error from a peer tool names the verb, not "pico: error: pico:".
    fake = os.path.join(tmp, "fake-loggopsim")
    os.makedirs(fake)
    for tool in ("LogGOPSim", "txt2bin"):
        write(fake, tool, "#!/bin/sh\necho broken >&2\nexit 3\n")
        os.chmod(os.path.join(fake, tool), 0o755)
    expect_bad_input(r"^pico: error: pico predict: txt2bin rejected", "predict", "allreduce", "--np", "4", "--size",
                     "1KiB", env={"PICO_LOGGOPSIM_DIR": fake})
    # bench -f -2 wrapped to 2^64-2 and planned one size.
    expect_bad_input(r"^pico: error: -f: the step factor must be 2 or more, got -2", "bench", "allreduce", "-b", "8",
                     "-e", "64", "-f", "-2", "--dry-run")
    # Output that cannot be written: exit 3 with the reason, for every verb; -o naming an existing file is bad
    # input (exit 2, issue 53: it was 3).
    a_file = write(tmp, "a-file", "x\n")
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    expect_bad_input(r"^pico: error: \S*a-file: is a file, not a directory", "run", quickstart, "-o", a_file, cwd=tmp)
    expect_bad_input(r"^pico: error: \S*a-file: is a file, not a directory", "run", quickstart, "--dir",
                     os.path.join(a_file, "run"), cwd=tmp)
    for args in (["run", quickstart, "-o", "/proc"],
                 ["schedule", "allreduce", "--algorithm", "ring", "--np", "4", "--size", "1KiB", "-o", "/proc/x"],
                 ["report", example, "-o", "/proc/x"]):
        proc = pico(*args, cwd=tmp)
        expect(proc.returncode == 3 and re.search(r"^pico: error: .*cannot write \S+: \S", proc.stderr)
               and "filesystem error" not in proc.stderr, f"{args}: exit {proc.returncode}\n{proc.stderr}")
    # Reports whose numbers cannot be measurements.
    for what, edit, pattern in [
            ("negative", lambda c: c["timing"].update(median_s=-1.0), r"timing\.median_s is -1"),
            ("zero", lambda c: c["timing"].update(median_s=0.0), r"timing\.median_s is 0"),
            ("minimum", lambda c: c["timing"].update(min_s=-2e-6), r"timing\.min_s is -2e-06"),
            ("bytes", lambda c: c.update(bytes=2**64 - 1), r"bytes 18446744073709551615 is past 2\^63-1")]:
        doc = load(example)
        ok = [c for c in doc["cases"] if c.get("timing")]
        edit(ok[0])
        bad = write(tmp, f"{what}.json", json.dumps(doc))
        for verb in (["report", bad], ["compare", bad], ["tune", bad]):
            expect_bad_input(r"malformed report: cases\[\d+\]: " + pattern, *verb, cwd=tmp)
    doc = load(example)
    doc["cases"].append(doc["cases"][0])
    twice = write(tmp, "twice.json", json.dumps(doc))
    expect_bad_input(r"malformed report: cases\[\d+\]: case \S+ appears twice", "report", twice)
    # A 100,000-deep array segfaulted `report -f json`.
    deep = write(tmp, "deep.json", '{"schema": "pico-report/1", "cases": ' + "[" * 100000 + "]" * 100000 + "}")
    expect_bad_input(r"deep\.json: the JSON nests deeper than \d+ levels", "report", deep, "-f", "json")
    expect_bad_input(r"is a FIFO, device or socket", "export", "/dev/zero", "--format", "ompi-rules")
    # Free text into a foreign format: refused where it is read.
    profile = load(os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"))
    profile["platform"] = "local\n2  # collective allreduce"
    injected = write(tmp, "injected.json", json.dumps(profile))
    expect_bad_input(r"injected\.json: platform: holds a line break", "export", injected, "--format", "ompi-rules")
    profile["platform"] = "local"
    profile["library"]["version"] = ""
    unversioned = write(tmp, "unversioned.json", json.dumps(profile))
    expect_bad_input(r"library/version: '' is not a library version", "export", unversioned, "--format", "ompi-rules")
    # A profile tuned on an oversubscribed run says so whenever a verb loads it (issue 51).
    profile["library"]["version"] = "4.1.4"
    profile["warnings"] = ["run1: oversubscribed (3 ranks on host vm with 2 cores): ranks wait for cores"]
    warned = write(tmp, "warned.json", json.dumps(profile))
    proc = pico("export", warned, "--format", "ompi-rules", "-o", os.path.join(tmp, "warned.rules"))
    expect(proc.returncode == 0 and re.search(r"pico: warning: \S*warned\.json: run1: oversubscribed \(3 ranks", proc.stderr),
           f"export of a warned profile: exit {proc.returncode}: {proc.stderr}")
    # A format's own flag with another format: refused, naming the formats that take it.
    expect_bad_input(r"--npus: --format ompi-rules takes no --npus", "export",
                     os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"), "--format",
                     "ompi-rules", "--npus", "4")
    model = load(os.path.join(SRC, "tests", "data", "model-example.json"))
    model["platform"] = "x\ntopology: [ Ring ]"
    bad_model = write(tmp, "model.json", json.dumps(model))
    expect_bad_input(r"model\.json: 'platform' holds a line break", "export",
                     os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"), "--format",
                     "astra-sim", "--model", bad_model, "-o", os.path.join(tmp, "astra"))
    # Not UTF-8: validate says where, and run refuses before a results directory exists.
    latin1 = os.path.join(tmp, "latin1.yaml")
    with open(latin1, "wb") as f:
        f.write(b"collectives: [allreduce]\nsizes: [8B]\ndescription: caf\xe9\n")
    for verb in (["validate", latin1], ["run", latin1, "-o", os.path.join(tmp, "r1")]):
        expect_bad_input(r"latin1\.yaml:3:17: the file is not valid UTF-8 \(byte 0xe9\)", *verb, cwd=tmp)
    proc = subprocess.run([PICO.encode(), b"run", quickstart.encode(), b"-o", os.path.join(tmp, "r2").encode()],
                          capture_output=True, env={**{k.encode(): v.encode() for k, v in os.environ.items()},
                                                    b"OMPI_MCA_pico_test": b"\xff"}, timeout=120)
    stderr = proc.stderr.decode(errors="replace")
    expect(proc.returncode == 2 and "environment variable OMPI_MCA_pico_test: its value is not valid UTF-8" in stderr,
           f"exit {proc.returncode}: {stderr}")
    expect(not os.path.exists(os.path.join(tmp, "r1")) and not os.path.exists(os.path.join(tmp, "r2")),
           "refused input leaves no results directory")


def run_named(tests, name, prefix, prepare=None):
    """Runs tests["test_" + name] in a fresh temporary directory: 0 pass, 1 fail, 2 unknown.
    prepare() may return an exit code (a skip) to stop before the test."""
    test = tests.get(f"test_{name}")
    if test is None:
        print(f"unknown test {name}", file=sys.stderr)
        return 2
    if prepare is not None:
        code = prepare()
        if code is not None:
            return code
    with tempfile.TemporaryDirectory(prefix=f"{prefix}-{name}-") as tmp:
        try:
            test(tmp)
        except Failure as e:
            print(f"FAIL {name}: {e}", file=sys.stderr)
            return 1
    print(f"PASS {name}")
    return 0


def main():
    return run_named(globals(), sys.argv[1], "pico-e2e")


if __name__ == "__main__":
    sys.exit(main())
