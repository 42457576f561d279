# SPDX-License-Identifier: BSD-3-Clause
"""The oracle of the profile fuzz: a profile pico accepted must export to a
file its library parses (tests/tools/tuning_formats.py, written from the
libraries' readers) and that chooses, for every size the profile names, the
algorithm pico itself chooses there (TunedProfile::choose, docs/tuning.md) on
the rule's communicator size; on other communicator sizes (one below, one
above, twice, ...) pico's choice or the library's own default, never a third
algorithm.

Each format's lookup below is the library's own rule, written here from the
format's description, not from pico's writer: Open MPI's classic file takes
the last block <= the communicator and the last rule <= the message; its JSON,
NCCL's tuner CSV, Intel MPI's strings and UCC's tokens take the first match,
and where nothing matches the library's default runs. MPICH's tree is checked
for its structure only (its selection walks several keys pico does not set).

disagreement(profile_text, fmt, exported_text) -> None, or why they disagree.
"""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import tuning_formats as tf  # noqa: E402

MAX_KEY = (1 << 63) - 1  # the largest message size any library reads (int64, %li)
INT_MAX = (1 << 31) - 1


def choose(profile, coll, comm_size, nbytes, nodes=0):
    """TunedProfile::choose: the rules of the largest comm_size <= the communicator's
    (else the smallest); among several, the one with `nodes`; the range covering nbytes."""
    rules = [r for r in profile["rules"] if r["collective"] == coll]
    if not rules:
        return None
    sizes = [r["comm_size"] for r in rules]
    below = [s for s in sizes if s <= comm_size]
    applies = max(below) if below else min(sizes)
    chosen = None
    for r in rules:
        if r["comm_size"] != applies:
            continue
        if chosen is None or (nodes != 0 and r["nodes"] == nodes and chosen["nodes"] != nodes):
            chosen = r
    for rg in chosen["ranges"]:
        if nbytes >= rg["min_bytes"] and (rg["max_bytes"] is None or nbytes <= rg["max_bytes"]):
            return rg["algorithm"]
    return None


def sample_sizes(rule):
    """Each range's ends, and a point past the last one's start; barrier has only size 0."""
    if rule["collective"] == "barrier":
        return [0]
    out = set()
    for rg in rule["ranges"]:
        out.add(rg["min_bytes"])
        out.add(rg["min_bytes"] + 1)
        if rg["max_bytes"] is not None:
            out.add(rg["max_bytes"])
        else:
            out.add(rg["min_bytes"] * 2 + 1)
    return sorted(s for s in out if s <= MAX_KEY)  # no case is larger: a report's bytes are below 2^63


# How each library measures a collective's message, per pico byte (one rank's block).
def ompi_factor(coll, n):
    return {"allreduce": 1, "bcast": 1, "reduce": 1, "reduce_scatterv": 1, "barrier": 0}.get(coll, n)


def ucc_factor(coll, n):
    return n if coll in ("allgather", "alltoall", "gather") else 1


def nccl_factor(coll, n):
    return n if coll in ("allgather", "reduce_scatter") else 1


NCCL_NAMES = {"allreduce": "allreduce", "bcast": "broadcast", "reduce": "reduce", "allgather": "allgather",
              "reduce_scatter": "reducescatter"}
INTEL_VARS = {"allreduce": "ALLREDUCE", "bcast": "BCAST", "reduce": "REDUCE", "allgather": "ALLGATHER",
              "alltoall": "ALLTOALL", "gather": "GATHER", "scatter": "SCATTER",
              "reduce_scatter": "REDUCE_SCATTER_BLOCK", "reduce_scatterv": "REDUCE_SCATTER", "barrier": "BARRIER"}
# Open MPI 6.0's JSON keys where they are not pico's names (MPI_Reduce_scatter_block, MPI_Reduce_scatter).
OMPI_JSON_KEYS = {"reduce_scatter": "reduce_scatter_block", "reduce_scatterv": "reduce_scatter"}


def ompi_rules_lookup(text):
    """{(collective name, comm size): [(from, algorithm name)]}, from the rows and their comments."""
    tf.parse_ompi_rules(text)  # the library's invariants
    blocks, coll, current = {}, None, None
    for line in text.splitlines():
        if line.strip() == "rule-file-version-2":
            continue
        body, _, comment = line.partition("#")
        nums = [int(t) for t in body.split()]
        for v in nums:
            tf.need(-MAX_KEY - 1 <= v <= MAX_KEY, f"{v} does not fit Open MPI's %li")
        m = re.match(r"\s*collective (\S+)", comment)
        if len(nums) == 1 and m:
            coll = m.group(1)
        elif len(nums) == 2 and coll is not None:
            current = blocks.setdefault((coll, nums[0]), [])
        elif len(nums) >= 4 and current is not None:
            current.append((nums[0], comment.strip()))
    return blocks


def comm_sizes(rule):
    """The rule's own communicator size, then others around it: a library may apply a
    rule's block to them (Open MPI's classic file does, to every larger size)."""
    n = rule["comm_size"]
    return [n] + sorted({m for m in (1, n - 1, n + 1, 2 * n - 1, 2 * n, n + 64, n + 65, 3 * n) if m >= 1 and m != n})


def check_rule_samples(profile, pick):
    """pick(rule, nbytes, np) -> the export's algorithm name ("default" where nothing matches)
    on np ranks, or None to skip a size the format cannot carry. At the rule's own size the
    export runs pico's choice; at any other it runs pico's choice or the library's default,
    never a third algorithm (issue 53: bounds scaled for one size applied at another)."""
    for rule in profile["rules"]:
        for np in comm_sizes(rule):
            own = np == rule["comm_size"]
            for s in sample_sizes(rule):
                want = choose(profile, rule["collective"], np, s, rule["nodes"] if own else 0)
                got = pick(rule, s, np)
                if got is not None and got != want and (own or got != "default"):
                    return (f"{rule['collective']} np {np} (a rule for {rule['comm_size']}, {rule['nodes']} nodes) "
                            f"at {s} B: the export runs {got!r}, pico chooses {want!r}")
    return None


def disagreement(profile_text, fmt, text):
    try:
        profile = json.loads(profile_text)
        if fmt == "ompi-rules":
            blocks = ompi_rules_lookup(text)

            def pick(rule, s, np):
                key = s * ompi_factor(rule["collective"], np)
                if key > MAX_KEY:
                    return None
                # Open MPI: the last block <= the communicator, else the first.
                sizes = sorted(n for c, n in blocks if c == rule["collective"])
                if not sizes:
                    return "default"
                below = [n for n in sizes if n <= np]
                rows = blocks[(rule["collective"], below[-1] if below else sizes[0])]
                names = [name for start, name in rows if start <= key]
                return names[-1] if names else "default"
            return check_rule_samples(profile, pick)
        if fmt == "ompi-json":
            doc = json.loads(text)
            tf.check_ompi_json(doc)

            def pick(rule, s, np):
                coll = OMPI_JSON_KEYS.get(rule["collective"], rule["collective"])
                key = s * ompi_factor(rule["collective"], np)
                if key > MAX_KEY:
                    return None
                for block in doc["collectives"].get(coll, []):
                    if block["comm_size_min"] <= np <= block["comm_size_max"]:
                        for r in block["rules"]:
                            hi = MAX_KEY if r["msg_size_max"] == "inf" else r["msg_size_max"]
                            if r["msg_size_min"] <= key <= hi:
                                return r["alg"]
                        return "default"
                return "default"
            return check_rule_samples(profile, pick)
        if fmt == "mpich-json":
            tf.check_mpich_tree(json.loads(text))
            return None
        if fmt == "mpich-ch4-json":  # the ch4 tree's structure and guards (its selection walks keys pico does not set)
            tf.check_mpich_ch4_tree(json.loads(text))
            return None
        if fmt == "ompi-han-rules":  # coll/han's file, by its reader's invariants
            tf.parse_ompi_han_rules(text)
            return None
        if fmt == "ucc-tune":
            tokens = tf.parse_ucc_tune(text)

            def pick(rule, s, np):
                key = s * ucc_factor(rule["collective"], np)
                for t in tokens:
                    lo, hi = t["range"]
                    if rule["collective"] in t["colls"] and t["teams"] == f"[{np}]" and lo <= key and (
                            hi is None or key < hi):
                        return t["alg"]
                return "default"
            return check_rule_samples(profile, pick)
        if fmt == "nccl-tuner":
            rows = tf.parse_nccl_tuner(text)

            def pick(rule, s, np):
                key = s * nccl_factor(rule["collective"], np)
                nodes_now = rule["nodes"] if np == rule["comm_size"] else 0
                for coll, lo, hi, algo, proto, _channels, nodes, ranks in rows:
                    if (coll == NCCL_NAMES.get(rule["collective"]) and ranks in (-1, np)
                            and nodes in (-1, nodes_now) and lo <= key and (hi == -1 or key <= hi)):
                        return (algo, proto)
                return "default"

            def named(rule, s, np):
                got = pick(rule, s, np)
                if got == "default":
                    return got
                own = np == rule["comm_size"]
                want = choose(profile, rule["collective"], np, s, rule["nodes"] if own else 0) or ""
                algo, proto = got
                return want if want.lower() in (f"{algo}_{proto}", algo) else f"{algo}_{proto}"
            return check_rule_samples(profile, named)
        if fmt == "nccl-env":
            env = tf.check_nccl_env(text)
            algos = dict(item.split(":") for item in env.get("NCCL_ALGO", "").split(";") if item)

            def pick(rule, s, np):
                algo = algos.get(NCCL_NAMES.get(rule["collective"], "?"))
                if algo is None:
                    return "default"
                own = np == rule["comm_size"]
                want = choose(profile, rule["collective"], np, s, rule["nodes"] if own else 0) or ""
                return want if want.lower().startswith(algo) else algo
            return check_rule_samples(profile, pick)
        if fmt == "intel-mpi":
            env = tf.check_intel(text)

            def pick(rule, s, np):
                if s > INT_MAX:
                    return None  # Intel MPI's sizes end at 2^31-1
                value = env.get("I_MPI_ADJUST_" + INTEL_VARS.get(rule["collective"], "?"), "")
                for item in value.split(";") if value else []:
                    m = re.fullmatch(r"([0-9]+):([0-9]+)-([0-9]+)@([0-9]+)-([0-9]+)", item)
                    alg, lo, hi, p, q = m.group(1), *map(int, m.groups()[1:])
                    tf.need(lo <= hi, f"item {item!r} starts past its end")
                    if p <= np <= q and lo <= s <= hi:
                        return alg
                return "default"
            return check_rule_samples(profile, pick)
        return None
    except (tf.FormatError, ValueError, KeyError, TypeError, AttributeError) as e:
        return f"the export does not parse as {fmt}: {type(e).__name__}: {e}"
