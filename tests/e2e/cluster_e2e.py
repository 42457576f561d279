#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests on the emulated multi-node cluster (scripts/emulated-cluster.sh).

usage: cluster_e2e.py TEST   (PICO, PICO_SOURCE_DIR as for e2e.py)

The tests build a cluster of their own (PICO_CLUSTER_NAME=pct, state in
/run/pico-cluster-test), beside any cluster a user has up, with the shape each
needs, from the platform files in platforms/ with the paths rewritten. Each
test removes its cluster when it ends, pass or fail; `teardown` (CTest's
fixture cleanup) removes it again and fails if anything is left. A test exits
77 (skipped) when the cluster cannot be built here: not root, no iproute2 or
util-linux, no network namespaces, or (Slurm) no slurmd or munge.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import SRC, Failure, check_schema, expect, load, pico, report_path, run_named, write  # noqa: E402

SCRIPT = os.path.join(SRC, "scripts", "emulated-cluster.sh")
NAME = "pct"
STATE = "/run/pico-cluster-test"
ENV = dict(os.environ, PICO_CLUSTER_NAME=NAME, PICO_CLUSTER_DIR=STATE)
SKIP = 77
MIB = 1 << 20


class Skip(Exception):
    pass


def cluster(*args, check=True):
    proc = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, env=ENV, timeout=120)
    if check and proc.returncode != 0:
        raise Failure(f"emulated-cluster.sh {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return proc


def start(*args):
    """Starts the test cluster (skips the test when this machine cannot have one); returns start's stdout."""
    if os.geteuid() != 0:
        raise Skip("the emulated cluster needs root (network namespaces)")
    for tool in ("ip", "tc", "nsenter", "unshare"):
        if not shutil.which(tool):
            raise Skip(f"{tool} not found: install iproute2 and util-linux (scripts/setup.sh)")
    if "--slurm" in args:
        for tool in ("slurmctld", "slurmd", "munged"):
            if not shutil.which(tool):
                raise Skip(f"{tool} not found: install slurm-wlm and munge (scripts/setup.sh)")
    probe = subprocess.run(["ip", "netns", "add", f"{NAME}-probe"], capture_output=True, text=True)
    if probe.returncode != 0:
        raise Skip(f"cannot create a network namespace here: {probe.stderr.strip()}")
    subprocess.run(["ip", "netns", "delete", f"{NAME}-probe"], capture_output=True)
    return cluster("start", *args).stdout


def platform(tmp, name):
    """platforms/NAME.yaml pointed at the test cluster (its state directory and node names)."""
    with open(os.path.join(SRC, "platforms", f"{name}.yaml"), encoding="utf-8") as f:
        text = f.read()
    text = text.replace("/run/pico-cluster/", f"{STATE}/").replace("pico-node", f"{NAME}-node")
    return write(tmp, f"{name}.yaml", text)


def description():
    with open(os.path.join(STATE, "cluster.json"), encoding="utf-8") as f:
        return json.load(f)


def run(tmp, experiment_text, platform_file, *extra, env=None):
    experiment = write(tmp, "experiment.yaml", experiment_text)
    proc = pico("run", experiment, "-p", platform_file, "-o", os.path.join(tmp, "results"), *extra, env=env, cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path)
    return load(path)


def cpu_list(text):
    """taskset's list ("0,1", "0-3") as a sorted list of cpus."""
    out = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return sorted(out)


def expect_placement(report, nodes, ppn, np):
    """Rank r on node r // ppn + 1, on that node's cpus (any, unpinned), and the report names the
    emulated cluster it ran on."""
    ranks = sorted(report["provenance"]["ranks"], key=lambda r: r["rank"])
    expect(len(ranks) == np, f"{len(ranks)} ranks recorded, expected {np}")
    hosts = [r["host"] for r in ranks]
    expected = [f"{NAME}-node{r // ppn + 1}" for r in range(np)]
    expect(hosts == expected, f"ranks on hosts {hosts}, expected {expected}")
    expect(len(set(hosts)) == -(-np // ppn), f"{len(set(hosts))} distinct hosts")
    # The placement the plan took from the cluster is where the ranks ran: nothing to warn of (issue 66).
    expect(report["provenance"]["placement_mismatch"] == [], f"mismatch: {report['provenance']['placement_mismatch']}")
    emulated = report["provenance"].get("emulated")
    expect(emulated is not None and emulated["emulated"], f"provenance.emulated: {emulated}")
    expect([n["name"] for n in emulated["nodes"]] == [f"{NAME}-node{i}" for i in range(1, nodes + 1)],
           f"emulated nodes: {emulated['nodes']}")
    every_cpu = list(range(os.cpu_count()))
    for r in ranks:
        node = emulated["nodes"][r["rank"] // ppn]
        allowed = cpu_list(node["cpus"]) or every_cpu
        expect(sorted(r["cpus"]) == allowed, f"rank {r['rank']} ran on cpus {r['cpus']}, its node's are {allowed}")


SMALL = """\
    name: cluster-small
    collectives: [allreduce, bcast]
    sizes: [8B, 1KiB]
    dtypes: [float32]
    ops: [sum]
    processes: [{np}]
    backends: [{{library: mpi, algorithms: [default]}}]
    timing: {{warmup: 1, min_iterations: 3, max_iterations: 20, time_budget: 20ms, case_timeout: 60s}}
    """


def test_placement(tmp):
    """4 nodes x 1 rank, each node on a cpu of its own (wrapping round), then 2 nodes x 2 ranks
    unpinned: each rank on the host and cpus the shape gives it."""
    try:
        start("--nodes", "4", "--rate", "1gbit", "--ppn", "1")
        cpus = [n["cpus"] for n in description()["nodes"]]
        expect(cpus == [str(i % os.cpu_count()) for i in range(4)], f"4 nodes x 1 rank pinned to {cpus}")
        report = run(tmp, SMALL.format(np=4), platform(tmp, "emulated-cluster"))
        expect_placement(report, nodes=4, ppn=1, np=4)
        expect(all(n["rate"] == "1gbit" and n["rate_bps"] == 10**9 for n in report["provenance"]["emulated"]["nodes"]),
               "rates recorded")
        os.makedirs(os.path.join(tmp, "ppn2"))
        start("--nodes", "2", "--rate", "1gbit", "--ppn", "2", "--no-pin")
        expect(all(n["cpus"] == "" for n in description()["nodes"]), "--no-pin: nodes pinned")
        report = run(os.path.join(tmp, "ppn2"), SMALL.format(np=4), platform(tmp, "emulated-cluster"))
        expect_placement(report, nodes=2, ppn=2, np=4)
        # More ranks than nodes x ppn: the cluster's shape is a limit, not a hint.
        experiment = write(tmp, "too-many.yaml", SMALL.format(np=6))
        proc = pico("run", experiment, "-p", platform(tmp, "emulated-cluster"), "-o", os.path.join(tmp, "r6"), cwd=tmp)
        expect(proc.returncode == 1, f"6 ranks on 2 nodes x 2 slots: exit {proc.returncode}")
        launch_log = os.path.join(os.path.dirname(report_path(proc)), "launch-0.log")
        with open(launch_log, encoding="utf-8", errors="replace") as f:
            expect("not enough slots" in f.read(), "mpirun did not refuse 6 ranks for want of slots")
        # A cluster that is down is bad input, before any results directory.
        cluster("stop")
        proc = pico("run", experiment, "-p", platform(tmp, "emulated-cluster"), "-o", os.path.join(tmp, "down"), cwd=tmp)
        expect(proc.returncode == 2 and "emulated cluster that is not running" in proc.stderr,
               f"cluster down: exit {proc.returncode}\n{proc.stderr}")
        expect(not os.path.exists(os.path.join(tmp, "down")), "a results directory for a run that could not start")
    finally:
        cluster("stop", check=False)


def ring_allreduce_on_links(tmp, rate="200mbit", np_=4):
    """A 16 MiB ring allreduce on np_ nodes x 1 rank linked at `rate` (200 Mbit/s: slow enough that the 2
    shared cores are not what limits the links), checked to have run the ring; returns (its case, the time
    the links imply). The test asks no more of it; tests/bench/cluster_link_time.py holds the time to that."""
    try:
        start("--nodes", str(np_), "--rate", rate, "--ppn", "1")
        bytes_per_s = description()["nodes"][0]["rate_bps"] / 8
        report = run(tmp, f"""\
            name: cluster-allreduce
            collectives: [allreduce]
            sizes: [16MiB]
            dtypes: [float32]
            ops: [sum]
            processes: [{np_}]
            backends: [{{library: mpi, algorithms: [ring]}}]
            timing: {{warmup: 1, min_iterations: 3, max_iterations: 3, time_budget: 1ms, case_timeout: 120s}}
            validation: false
            """, platform(tmp, "emulated-cluster"))
    finally:
        cluster("stop", check=False)
    ring = [c for c in report["cases"] if c["algorithm"] == "ring"]
    expect(len(ring) == 1, f"one ring case: {[c['algorithm'] for c in report['cases']]}")
    case = ring[0]
    expect(case["status"] == "ok", f"ring: {case['status']} {case.get('reason')}")
    expect(case["selection"]["verified"], f"ring not verified: {case['selection']}")
    # Ring: p-1 reduce-scatter and p-1 allgather steps, each sending n/p bytes
    # over every node's link, both directions at once; no latency is added and
    # the 2(p-1) TCP round trips (~0.1 ms) are far below the total.
    model_s = 2 * (np_ - 1) / np_ * (16 * MIB) / bytes_per_s
    median = case["timing"]["median_s"]
    print(f"16 MiB ring allreduce, {np_} nodes at {rate}: median {median * 1e3:.0f} ms, "
          f"alpha-beta {model_s * 1e3:.0f} ms ({median / model_s:.2f}x)")
    return case, model_s


def test_ring_allreduce(tmp):
    """A 16 MiB ring allreduce across 4 nodes' emulated links runs, forced and verified, one rank a node (how
    long it takes against the links' rate: tests/bench/cluster_link_time.py, docs/platforms.md#measured)."""
    ring_allreduce_on_links(tmp)


COMPONENTS = """\
    name: cluster-components
    collectives: [allreduce, bcast, allgather]
    sizes: [64B, 64KiB]
    dtypes: [float32]
    ops: [sum]
    processes: [2, 3, 4]
    backends: [{library: mpi, algorithms: [default, han, han_simple, adapt]}]
    timing: {warmup: 1, min_iterations: 3, max_iterations: 20, time_budget: 20ms, case_timeout: 60s}
    """

ENTRY_POINT = {"han": "mca_coll_han_{}_intra", "han_simple": "mca_coll_han_{}_intra_simple",
               "adapt": "ompi_coll_adapt_{}"}


def rng(lo, hi, algorithm, params=None):
    """A profile range [lo, hi] choosing algorithm, hand-written (no evidence)."""
    return {"min_bytes": lo, "max_bytes": hi, "algorithm": algorithm, "params": params or {},
            "speedup": None if algorithm == "default" else {"estimate": 1.2, "low": 1.1, "high": 1.3},
            "measured_bytes": [], "evidence": []}


def han_profile(tmp):
    """A profile choosing tuned's ring below 16 KiB and han above for allreduce, and tuned's
    default below 16 KiB and han_simple above for bcast, on 4 ranks (2 nodes x 2)."""
    profile = {"schema": "pico-profile/1", "library": {"backend": "mpi", "name": "openmpi", "version": "4.1.4"},
               "platform": "emulated-cluster", "objective": "median", "min_gain": 0.05, "test": "hand-written",
               "reports": ["cluster-components"], "confidence": 0.95, "created": "2026-11-29T00:00:00Z",
               "pico_version": "0.1.0",
               "rules": [{"collective": "allreduce", "comm_size": 4, "nodes": 2, "ppn": 2,
                          "ranges": [rng(0, 16383, "ring"), rng(16384, None, "han", {"low_module": 1})]},
                         {"collective": "bcast", "comm_size": 4, "nodes": 2, "ppn": 2,
                          "ranges": [rng(0, 16383, "default"), rng(16384, None, "han_simple")]}]}
    return write(tmp, "han.profile.json", json.dumps(profile))


def test_components(tmp):
    """Open MPI's han and adapt beside tuned on 2 nodes x 2 slots at np 2, 3 and 4: each runs where
    its constraints say and the interposer sees its entry point at every call; a profile choosing
    han at some sizes and tuned at others, loaded into Open MPI, runs each at its sizes; then han on
    2 nodes x 4 slots at np 5 (unequal nodes) and 8."""
    try:
        start("--nodes", "2", "--rate", "1gbit", "--ppn", "2")
        plat = platform(tmp, "emulated-cluster")
        experiment = write(tmp, "components.yaml", COMPONENTS)
        proc = pico("run", experiment, "-p", plat, "-o", os.path.join(tmp, "results"), cwd=tmp)
        expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
        expect("rank placement: np 2: 1 node; np 3: 2 nodes (2 + 1 ranks); np 4: 2 nodes x 2 ranks" in proc.stdout,
               f"no placement line:\n{proc.stdout[-1500:]}")
        path = report_path(proc)
        check_schema(path)
        report = load(path)
        expect(report["provenance"]["placement_planned"]["ranks_per_node"] == 2,
               f"planned placement: {report['provenance'].get('placement_planned')}")
        # np 2, 3 and 4 ran as the cluster's slots gave them: no warning of a placement that did not hold.
        expect(report["provenance"]["placement_mismatch"] == [] and "placement is not where" not in proc.stderr,
               f"placement mismatch: {report['provenance']['placement_mismatch']}\n{proc.stderr[-1500:]}")
        seen = {}
        for c in report["cases"]:
            alg, coll, np_ = c["algorithm"], c["collective"], c["np"]
            if alg == "default":
                continue
            key = f"{coll} {alg} np {np_} {c['bytes']} B"
            reason = c.get("reason") or ""
            if alg == "adapt" and coll != "bcast":
                expect(c["status"] == "skipped" and "no algorithm 'adapt'" in reason, f"{key}: {c['status']} {reason}")
                continue
            if alg != "adapt" and np_ == 2:
                expected = "nodes >= 2"
            elif alg != "adapt" and np_ == 3 and coll != "allreduce":
                expected = "ppn_balanced"
            else:
                expected = None
            if expected:
                expect(c["status"] == "skipped" and expected in reason, f"{key}: {c['status']} {reason}")
                continue
            expect(c["status"] == "ok", f"{key}: {c['status']} {reason}")
            actual = c["selection"]["actual"]
            expect(actual["algorithm"] == alg, f"{key}: the interposer saw {actual}")
            entry = ENTRY_POINT[alg].format(coll)
            calls = [int(f.split(" x ")[1]) for f in actual["functions"] if f.split(" x ")[0] == entry]
            expect(calls and calls[0] >= c["warmup"] + c["iterations"], f"{key}: {entry} not at every call: {actual}")
            seen[alg] = seen.get(alg, 0) + 1
        expect(seen.get("han", 0) >= 6 and seen.get("han_simple", 0) >= 6 and seen.get("adapt", 0) == 6,
               f"component cases that ran: {seen}")

        # The profile, loaded into Open MPI: tuned's algorithm below 16 KiB, han's above, per the interposer.
        os.makedirs(os.path.join(tmp, "profiled"))
        profiled = run(os.path.join(tmp, "profiled"), COMPONENTS.replace("[64B, 64KiB]", "[1KiB, 1MiB]")
                       .replace("[2, 3, 4]", "[4]").replace("[default, han, han_simple, adapt]", "[default]")
                       .replace("[allreduce, bcast, allgather]", "[allreduce, bcast]"),
                       plat, "--profile", han_profile(tmp))
        ran = {(c["collective"], c["bytes"]): c["selection"]["actual"]["algorithm"] for c in profiled["cases"]}
        expect(ran[("allreduce", 1024)] == "ring" and ran[("allreduce", 1 << 20)] == "han", f"allreduce: {ran}")
        expect(ran[("bcast", 1024)] not in ("han", "han_simple") and ran[("bcast", 1 << 20)] == "han_simple",
               f"bcast: {ran}")
        env = profiled["provenance"]["profile"]["env"]
        expect(env.get("OMPI_MCA_coll_han_priority") == "100" and env.get("OMPI_MCA_coll_han_allreduce_low_module") == "1",
               f"profile variables: {env}")
        expect(profiled["provenance"]["profile"]["format"] == "ompi-rules + ompi-han-rules",
               f"profile format: {profiled['provenance']['profile']['format']}")

        # 2 nodes x 4 slots: np 5 is 4 + 1 (allreduce runs han, bcast would hand it back), np 8 is 4 + 4.
        cluster("stop")
        start("--nodes", "2", "--rate", "1gbit", "--ppn", "4")
        os.makedirs(os.path.join(tmp, "np5-8"))
        wide = run(os.path.join(tmp, "np5-8"), COMPONENTS.replace("[64B, 64KiB]", "[64KiB]").replace("[2, 3, 4]", "[5, 8]")
                   .replace("[allreduce, bcast, allgather]", "[allreduce, bcast]")
                   .replace("[default, han, han_simple, adapt]", "[han]"), plat)
        outcome = {(c["collective"], c["np"]): (c["status"], (c.get("selection") or {}).get("actual", {}).get("algorithm"))
                   for c in wide["cases"] if c["algorithm"] == "han"}
        expect(outcome == {("allreduce", 5): ("ok", "han"), ("bcast", 5): ("skipped", None),
                           ("allreduce", 8): ("ok", "han"), ("bcast", 8): ("ok", "han")}, f"np 5 and 8: {outcome}")
    finally:
        cluster("stop", check=False)


def test_openmpi5_profile(tmp):
    """Open MPI 5 on 2 nodes x 2: the default users get is han's; a profile of tuned's algorithms, loaded
    with --profile, runs those algorithms, not han (before d2d6129 han ran every size the profile chose);
    a profile choosing han at some sizes loads han's rules, which 5.0 reads as 4.1 does.
    Needs PICO_OPENMPI5_PREFIX and pico-worker-openmpi5 beside pico (docs/openmpi5.md); skipped otherwise."""
    prefix = os.environ.get("PICO_OPENMPI5_PREFIX")
    worker = os.path.join(os.path.dirname(os.environ["PICO"]), "pico-worker-openmpi5")
    if not prefix:
        raise Skip("PICO_OPENMPI5_PREFIX is not set (an Open MPI 5 built by scripts/build-openmpi5.sh)")
    if not os.access(worker, os.X_OK):
        raise Skip(f"no {worker} (configure with -DPICO_EXTRA_MPI=openmpi5={prefix})")
    version = subprocess.run([os.path.join(prefix, "bin", "ompi_info"), "--version"], capture_output=True,
                             text=True).stdout.split()[2].lstrip("v")
    try:
        start("--nodes", "2", "--rate", "1gbit", "--ppn", "2")
        with open(os.path.join(SRC, "platforms", "templates", "emulated-cluster-openmpi5.yaml"), encoding="utf-8") as f:
            text = f.read().replace("<PREFIX>", prefix)
        plat = write(tmp, "ec5.yaml", text.replace("/run/pico-cluster/", f"{STATE}/").replace("pico-node", f"{NAME}-node"))
        experiment = SMALL.format(np=4)
        os.makedirs(os.path.join(tmp, "default"))
        plain = run(os.path.join(tmp, "default"), experiment, plat)
        ran = {(c["collective"], c["bytes"]): c["selection"]["actual"]["algorithm"] for c in plain["cases"]}
        expect(set(ran.values()) == {"han"}, f"the default on 5.0, 2 x 2, ran {ran}; expected han everywhere")

        profile = {"schema": "pico-profile/1", "library": {"backend": "mpi", "name": "openmpi", "version": version},
                   "platform": "emulated-cluster-openmpi5", "objective": "median", "min_gain": 0.05,
                   "test": "hand-written", "reports": ["cluster-small"], "confidence": 0.95,
                   "created": "2026-12-02T00:00:00Z", "pico_version": "0.1.0",
                   "rules": [{"collective": "allreduce", "comm_size": 4, "nodes": 2, "ppn": 2,
                              # ring below np elements falls back to recursive doubling: the catalogue's constraint
                              "ranges": [rng(0, 1023, "recursive_doubling"), rng(1024, None, "ring")]},
                             {"collective": "bcast", "comm_size": 4, "nodes": 2, "ppn": 2,
                              "ranges": [rng(0, None, "binomial")]}]}
        profile_file = write(tmp, "tuned.profile.json", json.dumps(profile))
        proc = pico("run", write(tmp, "profiled.yaml", experiment), "-p", plat, "-o", os.path.join(tmp, "profiled"),
                    "--profile", profile_file, cwd=tmp)
        expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
        path = report_path(proc)
        check_schema(path)
        ran = {(c["collective"], c["bytes"]): c["selection"]["actual"]["algorithm"] for c in load(path)["cases"]}
        expect(ran == {("allreduce", 8): "recursive_doubling", ("allreduce", 1024): "ring", ("bcast", 8): "binomial",
                       ("bcast", 1024): "binomial"}, f"with the profile loaded: {ran}")
        groups = load(os.path.join(os.path.dirname(path), "plan.json"))["launch_groups"]
        expect(all(g["env"].get("OMPI_MCA_coll") == "^han" for g in groups),
               f"the profiled launches' environments: {[g['env'] for g in groups]}")

        # A profile choosing han at some sizes: 5.0 reads han's rules file as 4.1 does, and runs each
        # component at its sizes (tuned's ring, han, tuned's default, han_simple), with no ^han.
        han = json.loads(open(han_profile(tmp), encoding="utf-8").read())
        han["library"]["version"] = version
        proc = pico("run", write(tmp, "han.yaml", SMALL.format(np=4).replace("[8B, 1KiB]", "[1KiB, 1MiB]")), "-p", plat,
                    "-o", os.path.join(tmp, "han"), "--profile", write(tmp, "han5.profile.json", json.dumps(han)), cwd=tmp)
        expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
        path = report_path(proc)
        report = load(path)
        ran = {(c["collective"], c["bytes"]): c["selection"]["actual"]["algorithm"] for c in report["cases"]}
        expect(ran[("allreduce", 1024)] == "ring" and ran[("allreduce", MIB)] == "han" and
               ran[("bcast", 1024)] not in ("han", "han_simple") and ran[("bcast", MIB)] == "han_simple",
               f"with han's rules on {version}: {ran}")
        expect(report["provenance"]["profile"]["format"] == "ompi-rules + ompi-han-rules",
               f"profile format: {report['provenance']['profile']['format']}")
        groups = load(os.path.join(os.path.dirname(path), "plan.json"))["launch_groups"]
        expect(not any("OMPI_MCA_coll" in g["env"] for g in groups), f"^han with han chosen: {[g['env'] for g in groups]}")
    finally:
        cluster("stop", check=False)


def test_slurm(tmp):
    """The quickstart as one Slurm job on 2 nodes, and a 4-rank experiment on 4 nodes."""
    try:
        out = start("--nodes", "4", "--rate", "1gbit", "--ppn", "1", "--slurm")
        m = re.search(r"export SLURM_CONF=(\S+) PATH=(\S+):\$PATH", out)
        expect(m, f"no export line from start --slurm:\n{out}")
        env = {"SLURM_CONF": m.group(1), "PATH": f"{m.group(2)}:{os.environ['PATH']}"}
        slurm_platform = platform(tmp, "emulated-cluster-slurm")
        with open(os.path.join(SRC, "configs", "quickstart.yaml"), encoding="utf-8") as f:
            quickstart = f.read()
        report = run(tmp, quickstart, slurm_platform, env=env)
        expect(all(c["status"] == "ok" for c in report["cases"]), "every quickstart case ok")
        job = report["provenance"]["slurm"]
        expect(job["state"] == "COMPLETED" and job["nodes"] == 2, f"quickstart job: {job}")
        expect_placement(report, nodes=4, ppn=1, np=2)
        os.makedirs(os.path.join(tmp, "np4"))
        # two_proc needs 2 ranks: skipped when planned, so never part of the job.
        report = run(os.path.join(tmp, "np4"), SMALL.format(np=4).replace("[allreduce, bcast]", "[allgather]")
                     .replace("algorithms: [default]", "algorithms: [default, two_proc]"), slurm_platform, env=env)
        job = report["provenance"]["slurm"]
        expect(job["nodes"] == 4 and job["node_list"] == f"{NAME}-node[1-4]", f"4-node job: {job}")
        expect_placement(report, nodes=4, ppn=1, np=4)
        statuses = sorted((c["algorithm"], c["status"]) for c in report["cases"])
        expect(statuses == [("default", "ok")] * 2 + [("two_proc", "skipped")] * 2, f"cases: {statuses}")
    finally:
        cluster("stop", check=False)


def test_slow_link(tmp):
    """4 nodes x 1 rank at 1 Gbit/s, node 3's link at 100 Mbit/s: the launch's pairwise link probe names node 3,
    and it alone, in report.json, the table, the terminal view and the HTML page (issue 67: the per-call rule
    named the ranks downstream of the link, or nobody)."""
    try:
        start("--nodes", "4", "--rate", "1gbit", "--ppn", "1", "--node-rate", "3=100mbit")
        experiment = write(tmp, "experiment.yaml", SMALL.format(np=4))
        proc = pico("run", experiment, "-p", platform(tmp, "emulated-cluster"), "-o", os.path.join(tmp, "results"),
                    cwd=tmp)
    finally:
        cluster("stop", check=False)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path)
    report = load(path)
    expect_placement(report, nodes=4, ppn=1, np=4)
    probe = report["provenance"]["launches"][0]["link_probe"]
    expect(probe["rank_pairs"] == 6 and probe["rounds"] == 3, f"every pair of 4 ranks in 3 rounds: {probe}")
    expect(len(probe["host_pairs"]) == 6 and not any(p["intra_host"] for p in probe["host_pairs"]), str(probe))
    slow = report["slow_links"]
    node3 = f"{NAME}-node3"
    expect(slow["verdict"] == "named" and [n["host"] for n in slow["named"]] == [node3], f"slow_links: {slow}")
    expect(slow["named"][0]["agreeing"] == 3 and slow["named"][0]["ratio"] >= slow["factor"], str(slow["named"]))
    for fmt in ("table", "term"):
        out = pico("report", path, "--format", fmt)
        text = " ".join(out.stdout.split())  # the terminal view wraps lines
        expect(out.returncode == 0 and f"host {node3}: its 3 inter-host links" in text, f"{fmt}: {out.stdout}")
        expect(not any(f"host {NAME}-node{i}: its" in text for i in (1, 2, 4)), f"{fmt}: another host named: {text}")
        if fmt == "table":  # what the probe measured, for the log
            print("\n".join(line for line in out.stdout.splitlines() if line.startswith(("slow links", "  host "))))
    page = os.path.join(tmp, "report.html")
    made = pico("report", path, "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    with open(page, encoding="utf-8") as f:
        expect(f"host {node3}: its 3 inter-host links" in f.read(), "the HTML page's stragglers text names node 3")


def leftovers():
    """What of the test cluster is still there: namespaces, links, daemons, files."""
    found = []
    netns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    found += [f"namespace {line.split()[0]}" for line in netns.splitlines() if line.startswith(f"{NAME}-")]
    links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True).stdout
    found += [f"link {m}" for m in re.findall(rf"^\d+: ({NAME}-[^:@]+)", links, re.M)]
    for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(cmdline, "rb") as f:
                args = f.read().decode(errors="replace")
        except OSError:
            continue
        if STATE in args:
            found.append(f"process {cmdline.split('/')[2]}: {args.replace(chr(0), ' ')[:120]}")
    if os.path.exists(STATE):
        found.append(f"directory {STATE}")
    return found


def test_teardown(tmp):
    """CTest's fixture cleanup: stop the test cluster whatever the tests did, then nothing is left."""
    if os.geteuid() != 0 or not shutil.which("ip"):
        raise Skip("the emulated cluster needs root and iproute2")
    cluster("stop")
    left = leftovers()
    expect(not left, "left behind: " + "; ".join(left))


def main():
    def guarded():
        try:
            return run_named(globals(), sys.argv[1], "pico-cluster")
        except Skip as e:
            print(f"SKIP {sys.argv[1]}: {e}")
            return SKIP

    return guarded()


if __name__ == "__main__":
    sys.exit(main())
