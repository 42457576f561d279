#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Node-aware paths without a cluster: MPICH's ch4 compositions (alpha, beta,
gamma) on ranks Hydra starts on two or three host names of this machine.
Hydra's node map, not the hardware, is what MPICH splits a communicator
by, so a 2 x 2 launch here has MPICH's node sub-communicators as on two
real nodes (the bytes stay on this machine). Open MPI's han needs ranks on
distinct hosts and is tested on the emulated cluster (cluster_e2e.py).
"""

import json
import os
import re
import shutil
import sys

from e2e import SRC, cases_by, checked_report, expect, load, report_path, run_experiment, write
from e2e_libraries import needs_mpich_mpi_t

# Every collective with a composition, at a size under and one over MPICH's
# eager/rendezvous switch; int32 sum (commutative: the node-aware reductions
# reduce inside each node first).
COMPOSITIONS = """\
    collectives: [allreduce, bcast, reduce, barrier, scan]
    sizes: [64B, 64KiB]
    dtypes: [int32]
    ops: [sum]
    processes: {processes}
    backends: [{{library: mpi, algorithms: [composition_alpha, composition_beta, composition_gamma]}}]
    """

# Which compositions a collective has (configs/catalog/mpich.yaml, from
# MPICH 4.0.2's src/mpid/ch4/src/ch4_coll_impl.h), and which of them split
# the call by node (they need a node with two ranks).
HAS = {"allreduce": "abg", "bcast": "abg", "reduce": "abg", "barrier": "ab", "scan": "ab"}
NODE_AWARE = {("allreduce", "a"), ("bcast", "a"), ("bcast", "b"), ("reduce", "a"), ("reduce", "b"),
              ("barrier", "a"), ("scan", "a")}


def hosts_platform(tmp, name, ranks_per_host, hosts, cyclic=False):
    """MPICH with Hydra's fork launcher over `hosts` names of this machine, each taking ranks_per_host,
    filled host after host, or (cyclic) one rank per host in turn (Hydra's -ppn 1)."""
    listed = ",".join(hosts if cyclic else (f"{h}:{ranks_per_host}" for h in hosts))
    extra = ', -ppn, "1"' if cyclic else ""
    fill = "cyclic" if cyclic else "node_after_node"
    return write(tmp, f"{name}.yaml", f"""\
        name: {name}
        description: MPICH's Hydra starting ranks on {len(hosts)} host names of this machine
        scheduler: local
        launcher: {{kind: mpirun, command: mpirun.mpich, args: [-launcher, fork, -hosts, "{listed}"{extra}]}}
        mpi: {{library: mpich}}
        placement: {{ranks_per_node: {ranks_per_host}, fill: {fill}}}
        """)


def expected_skip(c, ranks_per_host, cyclic=False):
    """Why the plan must skip case c (placement: ranks_per_host on each host), or None."""
    letter = c["algorithm"].removeprefix("composition_")[0]
    np = c["np"]
    nodes = -(-np // ranks_per_host)
    if letter not in HAS[c["collective"]]:
        return "has no algorithm"
    if (c["collective"], letter) in NODE_AWARE and min(np, ranks_per_host) < 2:
        return "node sub-communicators do not exist"
    if c["collective"] == "allreduce" and letter == "g" and nodes > 1:
        return "MPICH picks only when that is one node"
    if (c["collective"], letter) == ("scan", "a") and cyclic and nodes > 1:
        return "each node's ranks are consecutive"
    return None


def check_compositions(report, ranks_per_host, cyclic=False):
    needs_mpich_mpi_t(report)  # the compositions are catalogued for 4.0 only
    ran = 0
    for c in report["cases"]:
        what = f"{c['collective']} {c['algorithm']} np {c['np']} {c['bytes']} B"
        if c["algorithm"] == "default":  # the baseline every sweep carries, run flat (DEVICE_COLLECTIVES=none)
            expect(c["status"] == "ok" and "MPIR_CVAR_DEVICE_COLLECTIVES" not in c["selection"].get("parameters", {}),
                   f"{what}: {c['reason']} {c['selection']}")
            continue
        skip = expected_skip(c, ranks_per_host, cyclic)
        if skip:
            expect(c["status"] == "skipped" and skip in c["reason"], f"{what}: {c['status']} {c['reason']}")
            continue
        expect(c["status"] == "ok", f"{what}: {c['reason']}")
        expect(c["validation"]["status"] == "passed" or c["collective"] == "barrier", f"{what}: {c['validation']}")
        s = c["selection"]
        letter = c["algorithm"].removeprefix("composition_")
        expect(s["verified"] is True and s["variable"] == "MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE"
               and s["value"].endswith(f"configs/catalog/mpich/ch4-composition-{letter}.json")
               and s["parameters"] == {"MPIR_CVAR_DEVICE_COLLECTIVES": "all"}, f"{what}: {s}")
        expect(s["actual"]["source"] == "none", f"{what}: {s['actual']}")
        ran += 1
    return ran


def subdir(tmp, name):
    path = os.path.join(tmp, name)
    os.makedirs(path, exist_ok=True)
    return path


def test_mpich_compositions(tmp):
    # 2 host names x 2 ranks: np 2 on one node, np 3 as 2 + 1, np 4 as 2 + 2.
    platform = hosts_platform(tmp, "two-hosts", 2, ["localhost", "127.0.0.1"])
    report = checked_report(run_experiment(tmp, COMPOSITIONS.format(processes="[2, 3, 4]"), "-p", platform))
    ran = check_compositions(report, 2)
    expect(ran == 68, f"{ran} composition cases ran")
    launches = report["run"]["launches"]
    expect(launches == 12, f"per np, one launch per composition and one for default: {launches}")
    planned = report["provenance"]["placement_planned"]
    expect(planned["ranks_per_node"] == 2 and planned["fill"] == "node after node", str(planned))

    # One rank per host name: no node with two ranks, so every node-aware composition is skipped.
    platform = hosts_platform(tmp, "three-hosts", 1, ["localhost", "127.0.0.1", "127.0.0.2"])
    report = checked_report(run_experiment(subdir(tmp, "flat"), COMPOSITIONS.format(processes="[3]"),
                                           "-p", platform))
    expect(check_compositions(report, 1) == 9, "the flat compositions ran on 3 x 1")

    # Odd and larger counts: np 5 (4 + 1) and 8 (4 + 4) on 2 hosts x 4.
    platform = hosts_platform(tmp, "two-hosts-4", 4, ["localhost", "127.0.0.1"])
    report = checked_report(run_experiment(subdir(tmp, "wide"), """\
        collectives: [allreduce, bcast, reduce]
        sizes: [64KiB]
        dtypes: [int32]
        ops: [sum]
        processes: [5, 8]
        backends: [{library: mpi, algorithms: [composition_alpha, composition_beta]}]
        """, "-p", platform))
    expect(check_compositions(report, 4) == 12, "alpha and beta at np 5 and 8")


def test_mpich_compositions_cyclic(tmp):
    # Ranks dealt to 2 host names in turn (0, 2 on one, 1, 3 on the other): every composition
    # runs and computes right but the node-aware scan, which assumes a node's ranks are
    # consecutive (constraint node_consecutive). Without that constraint it runs, and MPICH
    # gives ranks 1 and 2 wrong prefixes (seen: 6 and 4 for 3 and 6), so validation fails it.
    platform = hosts_platform(tmp, "dealt", 2, ["localhost", "127.0.0.1"], cyclic=True)
    report = checked_report(run_experiment(tmp, COMPOSITIONS.format(processes="[4]"), "-p", platform))
    expect(check_compositions(report, 2, cyclic=True) == 20, "all but the node-aware scan ran on 2 x 2 dealt")
    expect(report["provenance"]["placement_planned"]["fill"] == "cyclic", str(report["provenance"]))

    catalog = os.path.join(tmp, "unguarded", "configs", "catalog")  # PICO_CATALOG_DIR is read before pico's own
    shutil.copytree(os.path.join(SRC, "configs", "catalog"), catalog)
    with open(os.path.join(catalog, "mpich.yaml"), encoding="utf-8") as f:
        text, guards = re.subn(r"\n *constraints:\n *- \{require: \"node_consecutive\"[^\n]*", "", f.read())
    expect(guards == 1, "the catalogue's node_consecutive guard was found")
    write(catalog, "mpich.yaml", text)
    proc = run_experiment(os.path.join(tmp, "unguarded"), """\
        collectives: [scan]
        sizes: [64B]
        dtypes: [int32]
        ops: [sum]
        processes: [4]
        backends: [{library: mpi, algorithms: [composition_alpha]}]
        """, "-p", platform, env={"PICO_CATALOG_DIR": catalog})
    report = checked_report(proc, exit_code=1)
    [case] = cases_by(report, algorithm="composition_alpha")
    expect(case["status"] == "failed" and "validation" in case["reason"], f"{case['status']}: {case['reason']}")


def test_mpich_composition_file_reaches_mpich(tmp):
    # The file is what selects: one naming a composition MPICH does not know
    # makes MPI_Init abort (ch4's parser asserts on the key), so the cases of
    # that launch fail with MPICH's message while the other launch's run.
    catalog = os.path.join(tmp, "configs", "catalog")  # PICO_CATALOG_DIR is read before pico's own
    shutil.copytree(os.path.join(SRC, "configs", "catalog"), catalog)
    alpha = os.path.join(catalog, "mpich", "ch4-composition-alpha.json")
    with open(alpha, encoding="utf-8") as f:
        text = f.read()
    with open(alpha, "w", encoding="utf-8") as f:
        f.write(text.replace("MPIDI_Allreduce_intra_composition_alpha", "MPIDI_Allreduce_intra_composition_omega"))
    platform = hosts_platform(tmp, "two-hosts", 2, ["localhost", "127.0.0.1"])
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B]
        dtypes: [int32]
        ops: [sum]
        processes: [4]
        backends: [{library: mpi, algorithms: [composition_alpha, composition_beta]}]
        """, "-p", platform, env={"PICO_CATALOG_DIR": catalog})
    report = checked_report(proc, exit_code=1)
    needs_mpich_mpi_t(report)
    [alpha_case] = cases_by(report, algorithm="composition_alpha")
    [beta_case] = cases_by(report, algorithm="composition_beta")
    expect(alpha_case["status"] == "failed" and beta_case["status"] == "ok", json.dumps(report["cases"])[:1500])
    expect("before this case ran" in alpha_case["reason"], alpha_case["reason"])
    log = os.path.join(os.path.dirname(report_path(proc)), alpha_case["reason"].split("see ")[-1])
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    expect("unrecognized key composition=MPIDI_Allreduce_intra_composition_omega" in text, text[-1500:])


def test_mpich_composition_profile(tmp):
    # A profile choosing MPIR's recursive doubling below 4 KiB and the node-aware
    # composition above for allreduce, and the flat gamma for bcast: pico run
    # loads its mpich-json and mpich-ch4-json exports with the ch4 device's
    # collectives on; MPICH parses both at MPI_Init (it aborts on a bad one) and
    # the library's default then computes right at every size.
    def rng(lo, hi, algorithm):
        return {"min_bytes": lo, "max_bytes": hi, "algorithm": algorithm, "params": {},
                "speedup": None if algorithm == "default" else {"estimate": 1.2, "low": 1.1, "high": 1.3},
                "measured_bytes": [], "evidence": []}
    profile = {"schema": "pico-profile/1", "library": {"backend": "mpi", "name": "mpich", "version": "4.0.2"},
               "platform": "two-hosts", "objective": "median", "min_gain": 0.05, "test": "hand-written",
               "reports": [], "confidence": 0.95, "created": "2026-11-29T00:00:00Z", "pico_version": "0.1.0",
               "rules": [{"collective": "allreduce", "comm_size": 4, "nodes": 2, "ppn": 2,
                          "ranges": [rng(0, 4095, "recursive_doubling"), rng(4096, None, "composition_alpha")]},
                         {"collective": "bcast", "comm_size": 4, "nodes": 2, "ppn": 2,
                          "ranges": [rng(0, None, "composition_gamma")]}]}
    path = write(tmp, "ch4.profile.json", json.dumps(profile))
    platform = hosts_platform(tmp, "two-hosts", 2, ["localhost", "127.0.0.1"])
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast]
        sizes: [64B, 64KiB]
        dtypes: [int32]
        ops: [sum]
        processes: [4]
        """, "-p", platform, "--profile", path)
    report = checked_report(proc)
    if report["run"]["mpi_target"].get("version") != "4.0.2":
        print(f"SKIP: the compositions are catalogued for MPICH 4.0; this is {report['run']['mpi_target']}")
        sys.exit(77)
    for c in report["cases"]:
        expect(c["status"] == "ok" and c["validation"]["status"] == "passed", f"{c['collective']} {c['bytes']}: {c}")
    loaded = report["provenance"]["profile"]
    expect(loaded["format"] == "mpich-json + mpich-ch4-json", str(loaded))
    ch4_file = next(f for f in loaded["files"] if f.endswith("ch4-selection.json"))
    plan = load(os.path.join(os.path.dirname(report_path(proc)), "plan.json"))
    envs = [g["env"] for g in plan["launch_groups"]]
    expect(all(e.get("MPIR_CVAR_DEVICE_COLLECTIVES") == "all" for e in envs), f"the profile's launch variable: {envs}")
    expect(loaded["env"]["MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE"] == ch4_file, str(loaded["env"]))
    with open(ch4_file, encoding="utf-8") as f:
        tree = json.load(f)
    tuned = tree["collective=allreduce"]["comm_type=intra"]["comm_size<=4"]
    expect(tuned["avg_msg_size<=4095"] == {"composition=MPIDI_Allreduce_intra_composition_beta": {}}, str(tuned))
    expect("composition=MPIDI_Allreduce_intra_composition_alpha" in tuned["avg_msg_size=any"]["comm_hierarchy=parent"],
           str(tuned))
