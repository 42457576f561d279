#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

A user's runs: the quickstart, process counts, dry runs, resume, repetitions, the
listing verbs, pico bench, oversubscription, the emulated network, phases and
pico's reference backend.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys

from e2e import (
    PICO,
    SRC,
    case_rows,
    case_table,
    check_schema,
    checked_report,
    expect,
    FAST_TIMING,
    dry_run_cases,
    expect_bad_input,
    json_lines,
    load,
    nccl_status,
    pico,
    report_path,
    run_experiment,
    unfolded,
    unwrapped,
    wait_until,
    write,
)


def test_quickstart(tmp):
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    cases = len(dry_run_cases(quickstart, cwd=tmp))  # the run must report every case its dry run plans
    proc = pico("run", quickstart, "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    path = report_path(proc)
    check_schema(path, "--expect-status", "ok", "--expect-cases", str(cases))
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
    expect(f"{cases} cases: {cases} ok, 0 failed, 0 skipped" in proc.stdout, "summary line")
    table = pico("report", results_dir)
    expect(table.returncode == 0 and "allreduce" in table.stdout, "pico report table")
    csv = pico("report", results_dir, "--format", "csv")
    expect(csv.returncode == 0 and len(csv.stdout.strip().splitlines()) == cases + 1,
           f"csv has a header and {cases} rows")
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
    # Per np: 4 dtypes x 3 counts x (6 reducing x 4 ops x 2 + 4 x 2 + bcast, sendrecv 1 each) + 1 barrier = 12 x 58 + 1
    # (the reducing ones: allreduce, reduce, reduce_scatter, reduce_scatterv, scan, exscan).
    expect(len(report["cases"]) == 4 * (12 * 58 + 1 + 3 * 4),  # alltoallv: no in-place form, no op
           f"{len(report['cases'])} cases")
    expect(report["run"]["launches"] == 4, "one launch per process count")
    expect({c["np"] for c in report["cases"]} == {1, 2, 3, 4}, "all process counts")
    expect(all(c["validation"]["status"] == "passed" for c in report["cases"] if c["collective"] != "barrier"),
           "all validated")


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
    # How the run was repeated is in the report (issue 69: experiment.parsed left it out).
    parsed = report["experiment"]["parsed"]
    expect(parsed.get("repetitions") == 3 and parsed.get("repetition_seed") == 5, str(parsed))
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


def test_guidelines(tmp):
    # Performance guidelines (issue 67): each mock-up composes the library's own collectives, validates like the
    # collective it stands in for, and the report pairs it with the default of the same choice.
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast, reduce, allgather, gather, reduce_scatter, scan]
        sizes: [64B, 4KiB]
        processes: [4]
        backends:
          - {library: mpi, algorithms: [default], guidelines: true}
        """)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr[-2000:]}")
    report = load(report_path(proc))
    check_schema(report_path(proc))
    cases = {c["case_id"]: c for c in report["cases"]}
    mock_ups = [c for c in report["cases"] if c["algorithm"].startswith("guideline:")]
    expect(len({c["algorithm"] for c in mock_ups}) >= 8, f"the standard set: {sorted({c['algorithm'] for c in mock_ups})}")
    for c in mock_ups:
        expect(c["status"] == "ok" and c["validation"]["status"] == "passed",
               f"{c['collective']} {c['algorithm']} {c['bytes']}: {c['status']} {c['reason']}")
    g = report["guidelines"]
    expect(g["checked"] == len(mock_ups) == len(g["checks"]), f"every mock-up checked once: {g['checked']}, {len(mock_ups)}")
    expect(g["unchecked"] == [] and g["skipped"] == 0, str(g["unchecked"]))
    expect(g["violated"] == sum(k["verdict"] == "violated" for k in g["checks"]), "violated counts the verdicts")
    order = [{"violated": 0, "undecided": 1, "holds": 2}[k["verdict"]] for k in g["checks"]]
    expect(order == sorted(order), f"violations first: {order}")
    paired = set()
    for k in g["checks"]:
        expect(len(k["default_cases"]) == 1 and len(k["mock_up_cases"]) == 1, str(k))
        d, m = cases[k["default_cases"][0]], cases[k["mock_up_cases"][0]]
        expect(d["algorithm"] == "default" and m["algorithm"] == k["guideline"], f"{d['algorithm']} / {m['algorithm']}")
        for field in ("collective", "bytes", "np", "dtype", "op", "in_place"):
            expect(d[field] == m[field] == k.get(field, d[field]), f"{field}: {d[field]} / {m[field]}")
        expect(k["ratio"] > 0 and k["ratio"] < float("inf"), f"ratio {k['ratio']}")
        if k["ratio_low"] is not None:
            expect(k["ratio_low"] <= k["ratio"] <= k["ratio_high"], f"interval holds its estimate: {k}")
        expect("Open MPI" in k["text"] and f"default {k['collective']}" in k["text"], k["text"])
        paired.add((k["collective"], k["guideline"], k["bytes"]))
    expect(len(paired) == len(g["checks"]), "one check per mock-up, size and collective")
    shown = pico("report", os.path.dirname(report_path(proc)))
    expect(shown.returncode == 0 and f"performance guidelines: {g['checked']} checked" in shown.stdout,
           shown.stdout[-2000:])


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


def test_list(tmp):
    libs = pico("list", "libraries")
    expect(libs.returncode == 0 and "openmpi" in libs.stdout and "mpich" in libs.stdout, libs.stdout)
    # Each worker built beside pico says which MPI it was linked against (its own --version).
    ompi = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout
    version = re.search(r"\(Open MPI\) (\S+)", ompi)
    expect(version and re.search(r"^  pico-worker +Open MPI v" + re.escape(version.group(1)) + " ", libs.stdout, re.M),
           libs.stdout)
    if os.path.exists(os.path.join(os.path.dirname(PICO), "pico-worker-mpich")):
        expect(re.search(r"^  pico-worker-mpich +MPICH Version: \d", libs.stdout, re.M), libs.stdout)
    algs = pico("list", "algorithms", "--library", "openmpi", "--collective", "bcast")
    expect("scatter_allgather_ring" in algs.stdout and "coll_tuned_bcast_algorithm=9" in algs.stdout, algs.stdout)
    expect(pico("list", "algorithms", "--library", "nope").returncode == 2, "unknown library is bad input")
    doc = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "gen_algorithms_doc.py"), "--check", "--pico",
                          PICO], capture_output=True, text=True)
    expect(doc.returncode == 0, doc.stderr + doc.stdout)


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


def test_dry_run(tmp):
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    proc = pico("run", quickstart, "--dry-run", "--np", "3", cwd=tmp)
    expect(proc.returncode == 0, proc.stderr)
    # The count it states is its table's (test_quickstart: and the run's), every case on the 3 ranks asked for:
    # said once above the fitted table, in every row of the whole one (--wide).
    rows = case_rows(proc.stdout)
    expect(f"{len(rows)} cases (0 skipped) in 1 launch group(s)" in proc.stdout, proc.stdout[:300])
    expect(re.search(r"^(.*, )?np: 3(,|$)", proc.stdout, re.M), f"np 3 said above the table:\n{proc.stdout[:600]}")
    wide = pico("run", quickstart, "--dry-run", "--np", "3", "--wide", cwd=tmp)
    expect(wide.returncode == 0, wide.stderr)
    whole = case_table(wide.stdout)
    elsewhere = [row for row in whole if row["np"] != "3"]
    expect(len(whole) == len(rows) and not elsewhere, f"{len(elsewhere)} cases not on np 3: {elsewhere[:3]}")
    commands = unfolded(proc.stdout)
    expect(re.search(r"mpirun -np 3 .*--oversubscribe.*pico-worker --launch RESULTS_DIR/launch-0.json", commands)
           or re.search(r"mpirun -np 3 .*pico-worker --launch", commands), "launch command shown")
    # Broken into lines of 100 columns, the command is the one --wide prints on one line.
    one_line = [line for line in wide.stdout.splitlines() if "mpirun" in line]
    expect(one_line and one_line[0] in commands.splitlines(), f"{one_line} not in\n{commands}")
    expect(not os.path.exists(os.path.join(tmp, "results")), "dry run writes nothing")


def test_dry_run_profile(tmp):
    # --dry-run --profile shows the variables the real launch sets (it showed none of the 9 a han profile sets).
    profile = os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json")
    exp = write(tmp, "tuned.yaml", """\
        collectives: [allreduce]
        sizes: [8B]
        processes: [2]
        backends: [{library: mpi, algorithms: [default]}]
        """ + FAST_TIMING)
    dry = pico("run", exp, "--profile", profile, "--dry-run", cwd=tmp)
    expect(dry.returncode == 0, dry.stderr)
    line = next((ln for ln in unfolded(dry.stdout).splitlines() if "mpirun" in ln), "")
    real = pico("run", exp, "--profile", profile, "-o", os.path.join(tmp, "results"), "-q", cwd=tmp)
    env = checked_report(real)["provenance"]["profile"]["env"]
    expect(env, "the real run records the profile's variables")
    for key, value in env.items():
        shown = value.replace(os.path.dirname(report_path(real)), "RESULTS_DIR")
        expect(f"{key}={shown} " in line, f"{key}={shown} not in the dry run's launch:\n{line}")


def test_dry_run_estimate(tmp):
    # The dry run states its wall time as a range: uncalibrated without a pilot (no MPI started), and with
    # --estimate calibrated by a pilot of a few of the experiment's own cases, run in a scratch directory that
    # goes with it. What the figures are is not asserted (no timing assertions): that they are said, and how.
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    plain = pico("run", quickstart, "--dry-run", cwd=tmp)
    expect(plain.returncode == 0, plain.stderr)
    text = unwrapped(plain.stdout)
    expect(re.search(r"^about \S+-\S+ of wall time, uncalibrated \(no pilot: --estimate runs", text, re.M),
           f"an uncalibrated range line in the dry run:\n{plain.stdout[:800]}")
    expect("pilot:" not in plain.stderr, f"no pilot without --estimate:\n{plain.stderr}")
    exp = write(tmp, "estimated.yaml", """\
        collectives: [allreduce, bcast]
        sizes: [8B, 1KiB, 64KiB]
        processes: [2]
        backends: [{library: mpi, algorithms: [default]}]
        """ + FAST_TIMING)
    scratch = os.path.join(tmp, "scratch")
    os.mkdir(scratch)
    piloted = pico("run", exp, "--estimate", cwd=tmp, env={"TMPDIR": scratch})
    expect(piloted.returncode == 0, piloted.stderr)
    expect(re.search(r"pilot: running \d+ of its cases on 'local'", unwrapped(piloted.stderr)),
           f"the dry run says it starts MPI:\n{piloted.stderr}")
    line = re.search(r"^about (\S+)-(\S+) of wall time \((\S+) at its middle\), from a pilot of (\d+) of its "
                     r"cases just run on 'local' \(one launch of np 2, ", unwrapped(piloted.stdout), re.M)
    expect(line, f"a calibrated range line:\n{piloted.stdout[:1200]}")
    expect(1 <= int(line.group(4)) <= 6, f"a few cases piloted: {line.group(0)}")
    expect(case_rows(piloted.stdout), "--estimate is a dry run: its case table")
    left = [name for name in os.listdir(scratch) if name.startswith("pico-pilot-")]
    expect(not left, f"the pilot's scratch directory removed: {left}")
    expect(not os.path.exists(os.path.join(tmp, "results")), "a dry run with --estimate writes no results")
    expect_bad_input(r"--estimate: a resume's dry run has no pilot", "run", "--resume", tmp, "--estimate")


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
    wait_until(lambda: len(json_lines(cases_file)) >= 3, f"3 cases finished in {cases_file}")
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
    expect(warning.search(unwrapped(over.stderr)), f"the run says so: {over.stderr!r}")
    report = load(report_path(over))
    found = report["provenance"]["oversubscribed"]
    expect([o["ranks"] for o in found] == [2 * cores] and all(o["ranks"] > o["cores"] for o in found), str(found))
    results = os.path.dirname(report_path(over))
    for verb in (["tune", results, "-o", os.path.join(tmp, "p.json")], ["compare", results], ["report", results]):
        proc = pico(*verb, cwd=tmp)
        expect(proc.returncode == 0 and warning.search(unwrapped(proc.stderr)),
               f"{verb[0]}: exit {proc.returncode} {proc.stderr!r}")
    alone = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [8B]
        processes: [1]
        """, "-q")
    expect(alone.returncode == 0 and "oversubscribed" not in alone.stderr, alone.stderr)
    expect(load(report_path(alone))["provenance"]["oversubscribed"] == [], "one rank on one core")


def test_placement_claim(tmp):
    # Issue 66: a platform's placement was never compared with where the ranks ran. This one claims a
    # rank per node (np 2 on 2 nodes) while its mpirun puts both on this host: said by the run,
    # recorded in the report, warned by report, compare and tune, and tune keys its rule on the host seen.
    platform = write(tmp, "claims-two-nodes.yaml", """\
        name: claims-two-nodes
        description: mpirun on this host, with a placement it does not have
        scheduler: local
        launcher: {kind: mpirun, command: mpirun, args: []}
        placement: {ranks_per_node: 1}
        """)
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [1KiB]
        processes: [1, 2]
        backends: [{library: mpi, algorithms: [default, ring]}]
        """, "-p", platform, "-q")
    report = checked_report(proc)
    warning = re.compile(r"^pico: warning: \S+: the platform's placement is not where the ranks ran \(np 2: planned "
                         r"2 nodes x 1 ranks, ran on 1 node; the plan's placement: the platform's placement", re.M)
    expect(warning.search(unwrapped(proc.stderr)), f"the run says so: {proc.stderr!r}")
    found = report["provenance"]["placement_mismatch"]
    expect([(m["np"], m["planned_ranks_per_host"], m["ran_ranks_per_host"], m["ran"]) for m in found]
           == [(2, [1, 1], [2], "1 node")], str(found))  # np 1 fits the claim: one node either way
    results = os.path.dirname(report_path(proc))
    for verb in (["compare", results], ["report", results]):
        shown = pico(*verb, cwd=tmp)
        expect(shown.returncode == 0 and warning.search(unwrapped(shown.stderr)),
               f"{verb[0]}: exit {shown.returncode} {shown.stderr!r}")
    profile = os.path.join(tmp, "p.json")
    tuned = pico("tune", results, "-o", profile, "--wide", cwd=tmp)
    expect(tuned.returncode == 0 and warning.search(unwrapped(tuned.stderr)), f"tune: exit {tuned.returncode} {tuned.stderr!r}")
    expect("np 2 tuned as its ranks ran, on 1 node (rules for 1 node(s) x 2 ppn), not as the platform's placement "
           "claims (2 nodes x 1 ranks)" in tuned.stdout, tuned.stdout)
    rules = [(r["comm_size"], r["nodes"], r["ppn"]) for r in load(profile)["rules"]]
    expect((2, 1, 2) in rules and (2, 2, 1) not in rules, f"rules keyed on the host seen: {rules}")


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
    expect("rank_timing" in cases[0] and "rank_timing_off" not in cases[0], str(cases[0].keys()))
    # --no-rank-timing is timing.rank_timing: false (the experiment bench writes says so).
    unranked = pico("bench", "allreduce", "--np", "2", "--sizes", "8B", "-i", "4", "--no-rank-timing",
                    "-o", os.path.join(tmp, "unranked"), cwd=tmp)
    report = checked_report(unranked)
    expect(report["experiment"]["parsed"]["timing"]["rank_timing"] is False, str(report["experiment"]["parsed"]))
    expect(all(c["rank_timing_off"] is True and "rank_timing" not in c for c in report["cases"]),
           str([c.keys() for c in report["cases"]]))
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
    # A size measured too noisily (a loaded machine) has its median marked "?", said in a legend (noise guard).
    expect("?" not in row or "measured too noisily to support a verdict" in osu.stdout, osu.stdout)
    # By the header's names: a column with one value in every row is said above a table wider than 100 columns.
    at = {name: i for i, name in enumerate(header.split())}
    cells = [c.rstrip("?") for c in row.split()]
    t = report["cases"][1]["timing"]
    expect(all(abs(float(cells[at[k]]) - t[key] * 1e6) < 0.01
               for k, key in [("min(us)", "min_s"), ("median(us)", "median_s"), ("max(us)", "max_s")]),
           f"{row} vs {t}")
    # The bandwidth is the median's (issue 36: the table showed avg and a bandwidth from an unshown median).
    algbw = report["cases"][1]["bytes"] / t["median_s"] / 1e9
    got = cells[at["algbw(GB/s)"]]
    expect(abs(float(got) - algbw) < 0.01 + 0.01 * algbw, f"algbw {got} vs bytes/median {algbw}")
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
