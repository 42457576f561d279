# SPDX-License-Identifier: BSD-3-Clause
"""Kind `predict` of tests/fuzz/mutate_inputs.py: `pico predict --profile` must
name what the exported ompi-rules file makes Open MPI run (issue 66, finding 7).

Each input is a valid Open MPI profile generated from the catalogue (one to
three rules of one collective on communicator sizes 2 to 70, each with one to
four ranges of the version's coll/tuned algorithms or `default`), exported as
ompi-rules, then asked of predict at communicator sizes below the smallest
rule, at a rule's size, between two rules, just past a rule's reach (twice
it, 64 more) and far above, at message sizes on each side of the range
bounds. The file's choice is read the way Open MPI reads it (the last
comm-size block <= the communicator, else the first; in it the last row <=
the message size times the collective's factor: export_oracle.ompi_rules_lookup);
predict's word after "picks" must be that row's algorithm ("default" for a
default row or no block).

real_launch_check() runs a sample of such profiles in real Open MPI
(`pico run --profile`, algorithms [default], the interposer saying which
algorithm ran) on 2 to 5 ranks and compares that with the file's choice and
predict's (where the file leaves tuned's own decision, with a run without the
profile).
"""
import copy
import json
import random
import subprocess
from pathlib import Path

import yaml

from export_oracle import ompi_rules_lookup

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "tests/data/export/openmpi-4.1.4.profile.json"
VERSIONS = ("4.1.4", "5.0.7")
MAX_KEY = (1 << 63) - 1
# coll/tuned's message size per pico byte (collectives/*.cpp ompi_size): block, comm_total (x np), none (0).
FACTOR = {"allreduce": "block", "bcast": "block", "reduce": "block", "allgather": "total", "gather": "total",
          "scatter": "total", "alltoall": "total", "reduce_scatter": "total", "barrier": "none",
          "alltoallv": "none"}


def factor(coll, np):
    return {"block": 1, "total": np, "none": 0}[FACTOR[coll]]


def _version_ok(spec, version):
    """A catalogue `versions:` range (">=4.1,<5.0") holds version."""
    if not spec:
        return True
    v = tuple(int(x) for x in version.split("."))
    for part in spec.split(","):
        part = part.strip()
        op = part[:2] if part[:2] in (">=", "<=") else part[:1]
        want = tuple(int(x) for x in part[len(op):].split("."))
        ok = {">=": v >= want, "<=": v <= want, "<": v < want, ">": v > want}.get(op, v == want)
        if not ok:
            return False
    return True


def tuned_algorithms():
    """{version: {collective: [coll/tuned algorithm names]}}: the catalogue's, components (han, adapt) left out."""
    catalog = yaml.safe_load((ROOT / "configs/catalog/openmpi.yaml").read_text())
    out = {}
    for version in VERSIONS:
        out[version] = {}
        for coll, entry in catalog["collectives"].items():
            if coll not in FACTOR:
                continue
            names = [a["name"] for a in entry.get("algorithms", [])
                     if not a.get("component") and _version_ok(a.get("versions"), version)]
            if names:
                out[version][coll] = names
    return out


ALGORITHMS = tuned_algorithms()


def generate(rng: random.Random):
    """(profile text, collective, [comm sizes of its rules]): a valid profile of one collective."""
    profile = json.loads(TEMPLATE.read_text())
    version = rng.choice(VERSIONS)
    profile["library"]["version"] = version
    coll = rng.choice(sorted(ALGORITHMS[version]))
    base = copy.deepcopy(profile["rules"][0])
    sizes = sorted(rng.sample(range(2, 71), rng.randrange(1, 4)))
    rules = []
    for n in sizes:
        rule = copy.deepcopy(base)
        rule.update({"collective": coll, "comm_size": n, "nodes": 1, "ppn": n})
        # barrier and alltoallv: tuned compares message size 0, so one range only (more are refused)
        count = 1 if FACTOR[coll] == "none" else rng.randrange(1, 5)
        bounds = sorted(rng.sample([1, 2, 3, 7, 8, 64, 999, 1000, 1024, 4096, 65536, 1 << 20, 1 << 30], count - 1))
        starts = [0] + bounds
        ranges = []
        for k, start in enumerate(starts):
            algorithm = rng.choice(ALGORITHMS[version][coll] + ["default"])
            rg = copy.deepcopy(base["ranges"][0])
            rg.update({"min_bytes": start, "max_bytes": starts[k + 1] - 1 if k + 1 < len(starts) else None,
                       "algorithm": algorithm, "params": {},
                       "speedup": None if algorithm == "default" else {"estimate": 1.3, "low": 1.1, "high": 1.5}})
            ranges.append(rg)
        rule["ranges"] = ranges
        rules.append(rule)
    profile["rules"] = rules
    return json.dumps(profile), coll, sizes


def probe_points(rng: random.Random, coll, sizes, text, count=2):
    """(np, bytes) to ask predict: np below, at, between and past the rules' sizes; bytes around the bounds."""
    profile = json.loads(text)
    nps = set()
    if sizes[0] > 2:
        nps.add(rng.randrange(2, sizes[0]))
    nps.add(rng.choice(sizes))
    for a, b in zip(sizes, sizes[1:]):
        if b - a > 1:
            nps.add(rng.randrange(a + 1, b))
    top = sizes[-1]
    nps.update(rng.sample([top + 1, 2 * top - 1, 2 * top, 2 * top + 1, top + 64, top + 65, 3 * top, 1000], 2))
    byte_points = {0, 1}
    for rule in profile["rules"]:
        for rg in rule["ranges"]:
            byte_points.update({rg["min_bytes"], max(0, rg["min_bytes"] - 1), rg["min_bytes"] + 1})
    nps = sorted(nps)
    return [(rng.choice(nps), rng.choice(sorted(byte_points))) for _ in range(count)]


def file_choice(blocks, coll, np, nbytes):
    """The algorithm Open MPI runs on np ranks for nbytes per rank, from the exported rules ("default": tuned's own)."""
    sizes = sorted(n for c, n in blocks if c == coll)
    if not sizes:
        return "default"
    below = [n for n in sizes if n <= np]
    rows = blocks[(coll, below[-1] if below else sizes[0])]
    key = nbytes * factor(coll, np)
    if key > MAX_KEY:
        return None
    names = [name.split()[0] for start, name in rows if start <= key]
    return names[-1] if names else "default"


def predict_word(stdout):
    """The word after "picks" in predict's profile line, or None where there is none."""
    for line in stdout.splitlines():
        if line.startswith("profile ") and " picks " in line:
            return line.split(" picks ", 1)[1].split()[0].rstrip(":")
    return None


def predict_command(pico, coll, np, nbytes, path):
    size = [] if coll == "barrier" else ["--size", f"{max(nbytes, 1)}B", "--dtype", "int8"]
    return [pico, "predict", coll, "--np", str(np), *size, "--profile", str(path)]


def disagreement(exported_text, coll, np, nbytes, stdout):
    """None, or how predict's choice differs from the exported file's at (np, nbytes)."""
    want = file_choice(ompi_rules_lookup(exported_text), coll, np, max(nbytes, 1) if coll != "barrier" else 0)
    got = predict_word(stdout)
    if want is None or got == want:
        return None
    return f"{coll} np {np} at {nbytes} B: the exported ompi-rules file runs {want!r}, predict says {got!r}"


def real_launch_check(pico, work: Path, count: int, seed: int, run_command, timeout: float):
    """Runs `count` generated profiles (rules on 2 to 5 ranks, one bound at 1000 B) in real Open MPI on
    2 to 5 ranks at 800 B and 1200 B: the algorithm the interposer saw must be the exported file's choice
    and predict's (tuned's own decision where the file leaves it: a run without the profile). Returns
    (launched cases, [findings]) or (0, [why not])."""
    rng = random.Random(seed)
    sweep_sizes = (800, 1200)
    # Algorithms Open MPI 4.1 runs as forced on 2 to 5 ranks at these sizes (no fallback by size or
    # power of two), which the interposer tells apart (tuning_e2e.py SCALED, and two of the block-keyed).
    safe = {"allgather": ["bruck", "ring"], "alltoall": ["pairwise", "modified_bruck"],
            "gather": ["binomial", "basic_linear"], "scatter": ["binomial", "basic_linear"],
            "reduce_scatter": ["recursive_halving", "butterfly"], "allreduce": ["ring", "basic_linear"],
            "bcast": ["binomial", "chain"]}
    colls = sorted(safe)

    def experiment(name, chosen):
        path = work / f"{name}.yaml"
        path.write_text(f"collectives: [{', '.join(chosen)}]\nsizes: [{', '.join(f'{s}B' for s in sweep_sizes)}]\n"
                        "processes: [2, 3, 4, 5]\nbackends: [{library: mpi, algorithms: [default]}]\n"
                        "timing: {warmup: 1, min_iterations: 3, max_iterations: 20, time_budget: 10ms, "
                        "case_timeout: 60s}\n")
        return path

    def run(name, chosen, *extra):
        out = work / f"{name}-results"
        p = run_command([pico, "run", str(experiment(name, chosen)), "--dir", str(out), "-q", *extra], timeout)
        if p is None or not (out / "report.json").is_file():
            return None, f"pico run {name}: " + ("no answer" if p is None else f"exit {p.returncode}: {p.stderr[-400:]}")
        return json.loads((out / "report.json").read_text()), None

    own, why = run("own", colls)
    if own is None:
        return 0, [why]
    own_ran = {(c["collective"], c["np"], c["bytes"]): c.get("selection", {}).get("actual", {}).get("algorithm")
               for c in own["cases"]}
    findings, launched = [], 0
    for k in range(count):
        coll = rng.choice(colls)
        profile = json.loads(TEMPLATE.read_text())
        base = profile["rules"][0]
        names = safe[coll]
        sizes = sorted(rng.sample([2, 3, 4, 5], rng.randrange(1, 3)))
        profile["rules"] = []
        for n in sizes:
            rule = copy.deepcopy(base)
            rule.update({"collective": coll, "comm_size": n, "nodes": 1, "ppn": n})
            lo, hi = copy.deepcopy(base["ranges"][0]), copy.deepcopy(base["ranges"][0])
            lo.update({"min_bytes": 0, "max_bytes": 999, "algorithm": rng.choice(names)})
            hi.update({"min_bytes": 1000, "max_bytes": None, "algorithm": rng.choice(names)})
            rule["ranges"] = [lo, hi]
            profile["rules"].append(rule)
        path = work / f"real-{k}.profile.json"
        path.write_text(json.dumps(profile))
        exported = run_command([pico, "export", "--format", "ompi-rules", str(path)], timeout)
        if exported is None or exported.returncode != 0:
            findings.append(f"real {k}: export of a valid profile failed: {exported and exported.stderr[-300:]}")
            continue
        blocks = ompi_rules_lookup(exported.stdout)
        report, why = run(f"real-{k}", [coll], "--profile", str(path))
        if report is None:
            findings.append(f"real {k}: {why}")
            continue
        for case in report["cases"]:
            launched += 1
            np, nbytes = case["np"], case["bytes"]
            want = file_choice(blocks, coll, np, nbytes)
            ran = case.get("selection", {}).get("actual", {}).get("algorithm")
            expected = own_ran.get((coll, np, nbytes)) if want == "default" else want
            said = run_command(predict_command(pico, coll, np, nbytes, path), timeout)
            picks = predict_word(said.stdout) if said is not None else None
            if case["status"] != "ok" or ran != expected or picks != want:
                findings.append(f"real {k} ({path}): {coll} np {np} {nbytes} B: Open MPI ran {ran!r} "
                                f"(status {case['status']}), the file chooses {want!r} (so {expected!r} should run), "
                                f"predict says {picks!r}")
    return launched, findings
