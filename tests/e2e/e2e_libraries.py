#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

The MPI libraries: Open MPI and MPICH sweeps, call forms, non-blocking
algorithms, alltoallv, MPI_T and its fallbacks, segment parameters, the
interposer, direct launch and a mismatched MPI.
"""

import json
import os
import re
import shutil
import subprocess
import sys

from e2e import (
    PICO,
    PLAN_ORDER_TIMING,
    SRC,
    cases_by,
    check_schema,
    checked_report,
    expect,
    load,
    pico,
    report_path,
    run_experiment,
    write,
)


# sendrecv has no algorithm to choose: the sweep must plan it as `default` only.
SWEEP_COLLECTIVES = "[allreduce, bcast, allgather, alltoall, reduce, reduce_scatter, reduce_scatterv, scan, exscan, sendrecv]"


def catalogue_names(library, collective, call="blocking"):
    """(every algorithm, those limited to some versions) of one call form in the library's catalogue,
    its own component's: what `algorithms: all` sweeps (another component's, Open MPI's han or MPICH's
    ch4 compositions, are selected at launch and listed so)."""
    out = subprocess.run([PICO, "list", "algorithms", "--library", library, "--collective", collective],
                         capture_output=True, text=True, check=True, cwd=SRC).stdout.splitlines()[1:]
    rows = [line.split() for line in out if line.split()[2] == call and line.split()[4] != "launch"]
    return {r[3] for r in rows}, {r[3] for r in rows if r[6] != "all"}


def check_sweep(report, library):
    expect(report["run"]["mpi_target"]["library"] == library, f"planned for {report['run']['mpi_target']}")
    for coll in ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "reduce_scatterv", "scan",
                 "exscan", "sendrecv"]:
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
    # `all` is coll/tuned's algorithms: han and adapt run in launches of their own, only where named.
    components = sorted({c["algorithm"] for c in report["cases"] if c["algorithm"] in ("han", "han_simple", "adapt")})
    expect(not components, f"`all` swept other components: {components}")
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
    # The sweep for a terminal (pico report --format term): fitted to COLUMNS, each variant a row.
    term = pico("report", report_path(proc), "--format", "term", env={"COLUMNS": "72"})
    expect(term.returncode == 0, term.stderr)
    long_lines = [line for line in term.stdout.splitlines() if len(line) > 72 and not line.startswith("pico report: ")]
    expect(not long_lines, f"lines past 72 columns: {long_lines[:3]}")
    expect("\033[" not in term.stdout, "no colour into a pipe")
    # Each chain variant a row of its own, named in full or with its parameters' initials where narrow.
    for fanout in (2, 4):
        names = (f"mpi/chain[chain_fanout={fanout};segment_size=8192] ", f"mpi/chain[cf={fanout};ss=8192] ")
        expect(any(line.startswith(names) for line in term.stdout.splitlines()),
               f"chain fanout {fanout} named apart:\n{term.stdout[:3000]}")


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
            """, "--wide", *extra)  # whole names: a table fitted to 100 columns cuts "mpi/default (persist.."
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


NONBLOCKING_COLLECTIVES = ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "reduce_scatterv",
                           "gather", "scatter", "scan", "exscan", "barrier"]


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
            """, *extra, timing=PLAN_ORDER_TIMING)  # each algorithm once: what ran is checked, not its time
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
            """, *extra, timing=PLAN_ORDER_TIMING)  # each case once: what ran is checked, not its time
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
    for coll in ["allreduce", "bcast", "allgather", "alltoall", "reduce", "reduce_scatter", "reduce_scatterv", "scan",
                 "exscan", "gather", "scatter", "barrier"]:
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
    # PICO_CATALOG_DIR is read before pico's own; the ch4 composition files are named beside the catalogue.
    shutil.copytree(os.path.join(SRC, "configs", "catalog", "mpich"), os.path.join(tmp, "configs", "catalog", "mpich"))
    write(os.path.join(tmp, "configs", "catalog"), "mpich.yaml", catalogue)
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [4B, 64B]
        processes: [2]
        backends: [{library: mpi, algorithms: [reduce_scatter_allgather, recursive_doubling]}]
        """, "-p", MPICH_PLATFORM, env={"PICO_CATALOG_DIR": os.path.join(tmp, "configs", "catalog")})
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
    table = pico("report", report_path(proc), "--wide")  # fitted to 100 columns, the name is cut
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


def test_worker_missing(tmp):
    # A pico with no pico-worker-mpich beside it refuses an MPICH run up front (exit 2, no results directory), dry
    # run and resume alike, instead of handing mpirun the bare name: a planted one on PATH never runs.
    alone = os.path.join(tmp, "bin")
    os.makedirs(alone)
    shutil.copy(PICO, alone)
    shutil.copy(os.path.join(os.path.dirname(PICO), "pico-worker"), alone)
    planted = os.path.join(tmp, "path")
    os.makedirs(planted)
    marker = os.path.join(tmp, "PLANTED-RAN")
    write(planted, "pico-worker-mpich", f"#!/bin/sh\ntouch {marker}\n")
    os.chmod(os.path.join(planted, "pico-worker-mpich"), 0o755)
    env = {"PATH": planted + os.pathsep + os.environ["PATH"]}
    path = write(tmp, "experiment.yaml", "collectives: [allreduce]\nsizes: [8B]\nprocesses: [2]\n")
    for extra in (["--dry-run"], ["-o", os.path.join(tmp, "results")]):
        proc = subprocess.run([os.path.join(alone, "pico"), "run", path, "-p", MPICH_PLATFORM, *extra],
                              capture_output=True, text=True, cwd=tmp, env=dict(os.environ, **env), timeout=120)
        expect(proc.returncode == 2 and f"no pico-worker-mpich beside pico ({alone})" in proc.stderr
               and "never one found on PATH" in proc.stderr, f"{extra}: exit {proc.returncode}\n{proc.stderr}")
    expect(not os.path.exists(marker), "the planted pico-worker-mpich ran")
    expect(not os.path.exists(os.path.join(tmp, "results")), "refused before a results directory existed")
    # A bare `worker:` name (a worker built by -DPICO_EXTRA_MPI) is one beside pico, never the one on PATH.
    write(planted, "pico-worker-openmpi5", f"#!/bin/sh\ntouch {marker}\n")
    os.chmod(os.path.join(planted, "pico-worker-openmpi5"), 0o755)
    as_root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    for worker, ok in (("pico-worker-openmpi5", False), ("pico-worker", True)):
        platform = write(tmp, f"{worker}.yaml", f"name: named\nscheduler: local\nlauncher: {{kind: mpirun, "
                         f"command: mpirun, args: {json.dumps(as_root)}}}\nworker: {worker}\n")
        out = os.path.join(tmp, f"results-{worker}")
        proc = subprocess.run([os.path.join(alone, "pico"), "run", path, "-p", platform, "-o", out],
                              capture_output=True, text=True, cwd=tmp, env=dict(os.environ, **env), timeout=300)
        if ok:
            commands = checked_report(proc)["provenance"]["launch_commands"]
            expect(all(os.path.join(alone, "pico-worker") in cmd for cmd in commands), str(commands))
        else:
            expect(proc.returncode == 2 and f"no pico-worker-openmpi5 beside pico ({alone})" in proc.stderr
                   and "pico list libraries" in proc.stderr, f"exit {proc.returncode}\n{proc.stderr}")
    expect(not os.path.exists(marker), "the planted pico-worker-openmpi5 ran")
