#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Compressed allreduce and the NCCL backend (skipped where no GPU or NCCL).
"""

import json
import os
import re
import sys

from e2e import (
    FAST_TIMING,
    cases_by,
    check_schema,
    checked_report,
    expect,
    load,
    nccl_status,
    pico,
    report_path,
    run_experiment,
)


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
    compare = pico("compare", os.path.dirname(report_path(proc)), "--wide")  # whole names, not [b=8]
    expect(compare.returncode == 0, compare.stderr)
    expect("compressed/global_qsgd[bits=8]" in compare.stdout and "compressed/dense" in compare.stdout, compare.stdout)
    rows = json.loads(pico("compare", report_path(proc), "--format", "json").stdout)
    expect(len(rows) == 2 * 7, f"{len(rows)} rows: every compressed case against dense at its size")
    expect(all(r["speedup"] > 0 and r["compression"] is not None for r in rows), str(rows[0]))
    bad = pico("compare", report_path(proc), "--baseline-case", "mpi:nothing")
    expect(bad.returncode == 2 and "no size has both" in bad.stderr, bad.stderr)


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
