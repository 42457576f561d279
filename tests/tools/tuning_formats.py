#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Parsers of the libraries' tuning inputs that check what each library needs.

Written from the libraries' readers (see /work/shared/reference/tuning-formats.md),
independently of pico's writers, so a writer that breaks an invariant fails here.

usage: tuning_formats.py DIR   checks every golden file in DIR by its extension:
  *.ompi-rules, *.ompi-han-rules, *.ompi-json, *.mpich-json, *.mpich-ch4-json, *.ucc-tune, *.nccl-tuner,
  *.nccl-env, *.intel-mpi
"""
import json
import os
import re
import sys


class FormatError(Exception):
    pass


def need(cond, what):
    if not cond:
        raise FormatError(what)


class Tokens:
    """A rules file's tokens, taken in order."""

    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def take(self):
        need(self.pos < len(self.tokens), "file ends early")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def left(self):
        return len(self.tokens) - self.pos


def parse_ompi_rules(text):
    """Open MPI's classic rules file: {collective id: {comm size: [(from, alg, faninout, segsize)]}}.
    Checks: integers only outside comments, no zero padding (fscanf %li reads octal), the
    version-2 header only with 5 columns, comm sizes ascending, each block's first rule 0 and
    message sizes ascending."""
    lines = text.splitlines()
    columns = 4
    if lines and lines[0].strip() == "rule-file-version-2":
        columns = 5
        lines = lines[1:]
    tokens = []
    for line in lines:
        line = line.split("#", 1)[0]
        for tok in line.split():
            need(re.fullmatch(r"-?[0-9]+", tok), f"non-numeric token {tok!r} (read silently as something else)")
            need(not (len(tok) > 1 and tok.startswith("0")), f"zero-padded {tok!r} reads as octal")
            tokens.append(int(tok))
    reader = Tokens(tokens)
    take = reader.take

    result = {}
    for _ in range(take()):
        coll = take()
        need(coll in (0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15), f"collective id {coll} has no dynamic rules")
        need(coll not in result, f"collective {coll} twice")
        blocks = {}
        last_size = -1
        for _ in range(take()):
            size, nrules = take(), take()
            need(size > last_size, f"comm-size blocks not ascending at {size}")
            last_size = size
            rules = []
            for _ in range(nrules):
                row = tuple(take() for _ in range(columns))
                rules.append(row[:4])
            need(rules and rules[0][0] == 0, f"collective {coll} comm size {size}: first rule not 0 (file dropped silently)")
            need(all(a[0] < b[0] for a, b in zip(rules, rules[1:])), f"collective {coll}: message sizes not ascending")
            need(all(r[1] >= 0 for r in rules), "negative algorithm id")
            blocks[size] = rules
        result[coll] = blocks
    need(reader.left() == 0, f"{reader.left()} numbers after the last collective")
    return result


def parse_ompi_han_rules(text):
    """Open MPI 4.1 coll/han's dynamic rules (coll_han_dynamic_file.c): {collective id: {conf size:
    [(from, component)]}}. Checks what 4.1.4's reader refuses or misreads: numbers where numbers go,
    components by name (an id is "an invalid collective component name"), one topological level
    per collective here (2, the user's communicator), the first configuration size 1, the first
    message size 0, both ascending; and what 4.1.4 does with them: allreduce never handed to tuned
    or basic (SIGSEGV), adapt never named (han does not run it)."""
    tokens = []
    for line in text.splitlines():
        tokens += line.split("#", 1)[0].split()
    reader = Tokens(tokens)
    take = reader.take

    def number():
        tok = take()
        need(re.fullmatch(r"[0-9]+", tok) and not (len(tok) > 1 and tok.startswith("0")), f"{tok!r} is not a number")
        return int(tok)

    result = {}
    for _ in range(number()):
        coll = number()
        need(coll in (0, 1, 2, 6, 7, 9, 11, 15), f"collective id {coll}: han has no dynamic rules for it")
        need(coll not in result, f"collective {coll} twice")
        need(number() == 1, "one topological level per collective expected")
        need(number() == 2, "the level must be 2 (the user's communicator)")
        confs = {}
        for k in range(number()):
            size, nrules = number(), number()
            need(k > 0 or size == 1, f"collective {coll}: first configuration size {size}, not 1")
            need(not confs or size > max(confs), f"collective {coll}: configuration sizes not ascending")
            rules = []
            for _ in range(nrules):
                frm, comp = number(), take()
                need(comp in ("self", "basic", "libnbc", "tuned", "sm", "adapt", "han"), f"component {comp!r}")
                need(comp != "adapt", "adapt named: 4.1.4's han never runs it")
                need(not (coll == 2 and comp in ("tuned", "basic")), "allreduce handed to tuned/basic: 4.1.4 dies")
                rules.append((frm, comp))
            need(rules and rules[0][0] == 0, f"collective {coll}: first message size not 0")
            need(all(a[0] < b[0] for a, b in zip(rules, rules[1:])), f"collective {coll}: sizes not ascending")
            confs[size] = rules
        result[coll] = confs
    need(reader.left() == 0, f"{reader.left()} tokens after the last collective")
    return result


def check_ompi_json(doc):
    need(doc.get("rule_file_version") == 3 and doc.get("module") == "tuned", "header keys")
    for coll, blocks in doc["collectives"].items():
        for b in blocks:
            need(b["comm_size_min"] <= b["comm_size_max"], f"{coll}: comm sizes")
            last = -1
            for r in b["rules"]:
                need(r["msg_size_min"] > last, f"{coll}: rules not ascending")
                need(r["msg_size_max"] == "inf" or r["msg_size_max"] >= r["msg_size_min"], f"{coll}: empty range")
                last = r["msg_size_max"] if r["msg_size_max"] != "inf" else float("inf")
                need(isinstance(r["alg"], str) and r["alg"], f"{coll}: algorithm name")


SIZE_KEY = re.compile(r"^([a-z_]+)(<=|<|=)(.+)$")


def check_mpich_chain(node, path, leaf="algorithm=", prefixes=("algorithm=MPIR_", "algorithm=MPIDI_")):
    need(isinstance(node, dict), f"{path}: not an object")
    keys = list(node)
    algs = [k for k in keys if k.startswith(leaf)]
    if algs:
        need(len(keys) == 1, f"{path}: {leaf} beside other keys")
        need(algs[0].startswith(prefixes), f"{path}: {algs[0]}")
        return
    need(keys, f"{path}: empty object (no algorithm reached)")
    comparisons = {}
    for k in keys:
        m = SIZE_KEY.match(k)
        need(m, f"{path}: key {k!r} is not name=value or name<=N")
        if m.group(2) in ("<=", "<"):
            comparisons.setdefault(m.group(1), []).append(k)
    for name in comparisons:
        need(keys[-1] == f"{name}=any", f"{path}: the {name} chain ends in {keys[-1]!r}, not {name}=any")
    for k in keys:
        check_mpich_chain(node[k], f"{path}/{k}", leaf, prefixes)


def check_mpich_tree(tree):
    """MPICH's selection tree: a whole tree (every collective MPICH selects for), each
    comparison chain ending in =any, every path reaching one algorithm, and reductions
    tuned by pico guarded for user ops (reduce_scatter, MPI_Reduce_scatter, for non-commutative ones:
    csel.c 4.0.2 defines is_op_built_in for allreduce and reduce only and asserts on any other)."""
    for coll in ("bcast", "allreduce", "reduce", "allgather", "alltoall", "barrier", "gather", "scatter",
                 "reduce_scatter", "reduce_scatter_block"):
        need(f"collective={coll}" in tree, f"collective={coll} missing: MPICH would abort it")
    guards = {"collective=allreduce": "is_op_built_in=no", "collective=reduce": "is_op_built_in=no",
              "collective=reduce_scatter": "is_commutative=no"}
    for key, sub in tree.items():
        need(key.startswith("collective="), key)
        check_mpich_chain(sub, key)
        intra = sub.get("comm_type=intra", {})
        if any(k.startswith("comm_size<=") for k in intra) and key in guards:
            need(list(intra)[0] == guards[key], f"{key}: tuned without the {guards[key]} guard first")
        need(key in ("collective=allreduce", "collective=iallreduce", "collective=reduce", "collective=ireduce")
             or "is_op_built_in=no" not in intra,
             f"{key}: MPICH asserts on is_op_built_in for this collective")


# MPICH 4.0.2's ch4 compositions that split a call by node (src/mpid/ch4/src/ch4_coll_impl.h):
# they use the communicator's node sub-communicators, which only a "parent" communicator has.
CH4_NODE_AWARE = re.compile(r"composition=MPIDI_(\w+)_intra_composition_(alpha|beta)$")
CH4_FLAT_BETA = {"Allreduce", "Barrier", "Scan"}


def check_ch4_guards(node, path, parent):
    """Below a tuned comm_size<=N, every node-aware composition sits under comm_hierarchy=parent:
    on a node's own sub-communicator (no node structure) it computes wrong results."""
    for k, sub in node.items():
        m = CH4_NODE_AWARE.match(k)
        if m and not (m.group(2) == "beta" and m.group(1) in CH4_FLAT_BETA):
            need(parent, f"{path}/{k}: a node-aware composition not under comm_hierarchy=parent")
        check_ch4_guards(sub, f"{path}/{k}", parent or k == "comm_hierarchy=parent")


def check_mpich_ch4_tree(tree):
    """MPICH's ch4 tree: leaves are compositions of the collective they sit under, each
    comparison chain ends in =any, and what pico tuned is guarded (reductions for
    non-commutative ops, node-aware compositions for the parent communicator)."""
    for coll in ("bcast", "allreduce", "reduce", "barrier"):
        need(f"collective={coll}" in tree, f"collective={coll} missing")
    for key, sub in tree.items():
        need(key.startswith("collective="), key)
        coll = key.split("=", 1)[1]
        check_mpich_chain(sub, key, "composition=", (f"composition=MPIDI_{coll.capitalize()}_intra_composition_",))
        intra = sub.get("comm_type=intra", {})
        tuned = [k for k in intra if k.startswith("comm_size<=")]
        if tuned and coll in ("allreduce", "reduce", "scan"):
            need(list(intra)[0] == "is_commutative=no", f"{key}: tuned without the is_commutative=no guard first")
        for k in tuned:
            check_ch4_guards(intra[k], f"{key}/{k}", False)


UCC_COLLS = {"allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier", "bcast", "fanin", "fanout",
             "gather", "gatherv", "reduce", "reduce_scatter", "reduce_scatterv", "scatter", "scatterv"}
UCC_MEM = {"host", "cuda", "cuda_managed", "rocm", "rocm_managed"}


def size_value(text):
    m = re.fullmatch(r"([0-9]+)([kKmMgG]?)", text)
    need(m, f"size {text!r}")
    return int(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]


def parse_ucc_tune(text):
    """UCC_TL_UCP_TUNE: '#'-separated tokens of ':'-separated qualifiers; one bad token drops the whole string."""
    text = text.strip()
    tokens = []
    for tok in text.split("#") if text else []:
        t = {"colls": None, "mem": None, "teams": None, "range": None, "score": None, "alg": None}
        for q in tok.split(":"):
            if q.startswith("@"):
                need(re.fullmatch(r"@[A-Za-z_][A-Za-z0-9_]*", q), f"algorithm {q!r}")
                t["alg"] = q[1:]
            elif q.startswith("["):
                need(re.fullmatch(r"\[[0-9]+(-([0-9]+|inf))?(,[0-9]+(-([0-9]+|inf))?)*\]", q), f"team sizes {q!r}")
                t["teams"] = q
            elif "-" in q:
                lo, hi = q.split("-", 1)
                lo_v = size_value(lo)
                need(hi == "inf" or size_value(hi) > lo_v, f"range {q!r} empty")
                t["range"] = (lo_v, None if hi == "inf" else size_value(hi))
            elif q in UCC_MEM:
                t["mem"] = q
            elif q == "inf" or q.isdigit():
                t["score"] = q
            else:
                colls = q.split(",")
                need(all(c in UCC_COLLS for c in colls), f"unknown qualifier {q!r} (e.g. 'cpu' drops the whole string)")
                t["colls"] = colls
        need(t["colls"] and t["alg"] and t["range"], f"token {tok!r} lacks collective, range or algorithm")
        tokens.append(t)
    return tokens


NCCL_COLLS = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"}
NCCL_ALGOS = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"}
NCCL_PROTOS = {"ll", "ll128", "simple"}


def parse_nccl_tuner(text):
    """NCCL's example tuner CSV: 8 columns, lowercase names it knows (others silently become
    allreduce/ring/simple), inclusive bytes with -1 = any, an explicit channel count, '#' only in column 0."""
    rows = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        need(len(line) <= 255, "line longer than 255 characters")
        cols = line.split(",")
        need(len(cols) in (8, 9, 10), f"{len(cols)} columns in {line!r}")
        coll, lo, hi, algo, proto, channels, nodes, ranks = cols[:8]
        need(coll in NCCL_COLLS and algo in NCCL_ALGOS and proto in NCCL_PROTOS, f"names in {line!r}")
        lo, hi, channels, nodes, ranks = int(lo), int(hi), int(channels), int(nodes), int(ranks)
        need(lo >= 0 and (hi == -1 or hi >= lo), f"bytes in {line!r}")
        need(channels > 0, f"no explicit channel count in {line!r} (NCCL would run one)")
        rows.append((coll, lo, hi, algo, proto, channels, nodes, ranks))
    return rows


def parse_exports(text, prefix):
    """`export NAME="VALUE"` lines (nccl-env, intel-mpi): {NAME: VALUE}."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'export ([A-Z_][A-Z0-9_]*)="([^"]*)"', line)
        need(m and m.group(1).startswith(prefix), f"line {line!r}")
        out[m.group(1)] = m.group(2)
    return out


def check_nccl_env(text):
    env = parse_exports(text, "NCCL_")
    for item in env.get("NCCL_ALGO", "").split(";") if env.get("NCCL_ALGO") else []:
        coll, algo = item.split(":")
        need(coll in NCCL_COLLS and algo in NCCL_ALGOS, item)
    for item in env.get("NCCL_PROTO", "").split(";") if env.get("NCCL_PROTO") else []:
        coll, proto = item.split(":")
        need(coll in NCCL_COLLS and proto in ("LL", "LL128", "Simple"), item)
    return env


def check_intel(text):
    env = parse_exports(text, "I_MPI_ADJUST_")
    for value in env.values():
        for item in value.split(";"):
            need(re.fullmatch(r"[0-9]+:[0-9]+-[0-9]+@[0-9]+-[0-9]+", item), f"I_MPI_ADJUST item {item!r}")
    return env


CHECKS = {
    ".ompi-rules": parse_ompi_rules,
    ".ompi-han-rules": parse_ompi_han_rules,
    ".ompi-json": lambda t: check_ompi_json(json.loads(t)),
    ".mpich-json": lambda t: check_mpich_tree(json.loads(t)),
    ".mpich-ch4-json": lambda t: check_mpich_ch4_tree(json.loads(t)),
    ".ucc-tune": parse_ucc_tune,
    ".nccl-tuner": parse_nccl_tuner,
    ".nccl-env": check_nccl_env,
    ".intel-mpi": check_intel,
}


def main():
    directory = sys.argv[1]
    checked = 0
    failed = 0
    for name in sorted(os.listdir(directory)):
        ext = os.path.splitext(name)[1]
        if ext not in CHECKS:
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            text = f.read()
        try:
            CHECKS[ext](text)
            checked += 1
        except (FormatError, ValueError, KeyError) as e:
            print(f"{name}: {e}", file=sys.stderr)
            failed += 1
    print(f"{checked} files keep their library's invariants, {failed} do not")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
