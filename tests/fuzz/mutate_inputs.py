#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Mutation fuzz of every file pico reads: experiments, platforms, reports,
tuned profiles, MPICH default trees, models, workloads, traces and results
directories.

Each input is a seed file from the repository changed by a few random
mutations (bytes, YAML/JSON tokens, values at their limits, deep nesting,
aliases); pico reads it (`validate`, `report`, `export`, `replay`) and must answer
with exit 0 (accepted), or exit 2 with the one error format:

    pico: error: WHERE: WHAT
      hint: WHAT TO DO        (optional)

Anything else is a finding: a signal (crash), another exit code, a run past
the timeout (hang), or a rejection in another format. A profile pico accepts
must also export to a file its library parses and that chooses what pico
chooses at every size the profile names (tests/fuzz/export_oracle.py); one
that does not is a finding ("disagree"). Findings are saved, with the command
that reproduces them, under --keep.

Kinds `count-matrix` (a file:PATH matrix, sometimes a FIFO or /dev/zero in its
place), `count-pattern` (the --counts text itself), `chakra-prefix` (the -o
prefix of `replay --format chakra`, as bytes: not UTF-8, control characters,
a trailing '/', long names) and `otf2` (one member of an OTF2 archive the
OTF2 library's writer made at start-up, its bytes mutated, or a FIFO or
/dev/zero in its place; skipped, saying why, without the OTF2 Python module)
fuzz the inputs issue 53 found broken.

Kind `results` (only with --kinds: it needs MPI) fuzzes a results directory.
At start-up the fuzz runs pico once on a tiny experiment on the local platform
(`pico run EXPERIMENT --dir TMP --np 2`: allreduce, 64 B and 1 KiB); if that
run fails (no MPI) the kind is skipped with the reason printed, and the fuzz
exits 77 (CTest: skipped) when it was the only kind asked for. Each input is a
copy of that directory with ONE of its files (report.json, run.json,
plan.json, launch-0.json, cases.jsonl, ...) mutated, JSON files and JSON-lines
records as JSON most of the time, then read by the verbs that read a results
directory without launching MPI, each on its own copy:

    pico report DIR --format table       (report.json)
    pico collect DIR --no-wait -q        (a local run: rebuilds report.json from DIR's files)
    env PATH=/nonexistent pico run --resume DIR -q
                                         (reads everything; with no launcher on PATH it can only
                                          rebuild the report or refuse, never start ranks)
    pico run --resume DIR --dry-run      (the same checks as the resume; starts nothing)

collect and run --resume may also exit 1
(a case of the rebuilt report failed) or 3 (a write failure, in the error
format); a report either of them writes must then read back with `pico
report` ("unreadable" otherwise). Rerun a collect or resume finding on a copy
of the kept directory: both rewrite its report.json. The seed directory is
made afresh by each fuzz run (its timings differ), so a finding is reproduced
from its kept directory, not by running the fuzz again.

    tests/fuzz/mutate_inputs.py --pico build/pico --count 200 --seed 1      # CI (CTest "fuzz: inputs")
    tests/fuzz/mutate_inputs.py --pico build/pico --kinds profile --count 300   # CI (CTest "fuzz: profiles")
    tests/fuzz/mutate_inputs.py --pico build/pico --kinds results --count 100   # CI (CTest "fuzz: results")
    tests/fuzz/mutate_inputs.py --pico build/pico --count 10000 --seed 7    # by hand, ~10 minutes on 2 cores
    PICO_FUZZ_COUNT=10000 ctest -R fuzz                                     # the CTest runs, larger

Issue 66: each outcome is judged against what the fuzz knows of its input
(make_input's expectation): an unmutated seed must be accepted, an edit of
tests/fuzz/hostile_edits.py refused; a library's own text on stderr
(RAW_TEXTS) is a finding whatever the exit. Kinds `predict` (generated valid
profiles of three families, tuned, han and ch4, some `default` ranges with
default_ran: pico predict --profile against the files it exports,
ompi-rules, ompi-han-rules, mpich-ch4-json and mpich-json, read as their
libraries read them, tests/fuzz/predict_oracle.py; --real-launches N runs N
tuned ones in real Open MPI), `catalog` (any catalogue of configs/catalog,
or one of the ch4 trees beside mpich.yaml, mutated in a directory given as
PICO_CATALOG_DIR, absolute or relative to the working directory, or planted
unasked as ./configs/catalog, which pico must not read; read by list
algorithms, a dry run of its library and the exports that read it) and
`tune` (the reports of two tiny seed runs mutated, given to tune and tune
--check) run only with --kinds. The 10,000-input commands and their seeds are in
docs/configuration.md#errors.

$PICO_FUZZ_COUNT, when set, replaces --count, so CTest's small counts can be raised without editing.

Seeded: the same --seed and --count give the same inputs (for `results`, given the
same seed directory, which each fuzz run makes afresh). Exits 1 on any finding.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import predict_oracle
from export_oracle import disagreement
from hostile_edits import catalog_hostile, report_bad_median, results_hostile, tree_hostile

ROOT = Path(__file__).resolve().parents[2]

# The one error format: a first line naming where and what, then optional hints.
FIRST_LINE = re.compile(r"^pico: error: \S.*?: \S.*$")
OTHER_LINE = re.compile(r"^(  hint: .*|  .*|pico: error: \S.*?: \S.*)$")
# A library's or the runtime's own words, never pico's (nlohmann, yaml-cpp, libstdc++), and pico's internal error.
# nlohmann's "type must be number, but is null" by its form: pico's own "dtype must be a single value, got a
# map" (a catalogue's YAML) is no library's text (the catalogue fuzz's 10,000 inputs took it for one).
RAW_TEXTS = [re.compile(r"type must be \w+, but is"), "bad conversion", "std::", "what():", "[json.exception.",
             "yaml-cpp:", "this is a bug in pico"]


def raw_text(stderr: str):
    """(the raw text, where it starts) of the first of RAW_TEXTS in stderr, or None."""
    for t in RAW_TEXTS:
        m = t.search(stderr) if isinstance(t, re.Pattern) else None
        if m is not None:
            return m.group(0), m.start()
        if isinstance(t, str) and t in stderr:
            return t, stderr.index(t)
    return None
# The share of inputs of the kinds with an expectation (issue 66) given unmutated: must be accepted.
UNMUTATED = 0.05

# Values at the edges of what a field may hold, tried in place of a scalar.
EDGE_VALUES = [
    "0", "-1", "1", "2", "65", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616", "1e308", "-1e308", "1e-320",
    "nan", ".nan", ".inf", "-.inf", "true", "false", "null", "~", "''", '""', "[]", "{}", "[[]]",
    "8B", "0B", "16EiB", "17179869184GiB", "1:0", "8B:1MiB:1", "8B:16EiB", "1ms", "0s", "-5s", "1e9s",
    "all", "default", "allreduce", "float32", "'../../x'", "/abs/path", "a/b", "'\\x1b[31m'", "é" * 70,
    "x" * 5000, "*undefined_alias", "&a [1]", "!!binary AAAA", "!custom x", "|", ">", "? a", "- -",
]
TOKENS = ["\n", ":", "- ", "[", "]", "{", "}", ",", "'", '"', "#", "&a ", "*a", "!!str ", "\t", "  ", "\\",
          "\x00", "\x1b", "\r", "\ufeff", "---\n", "...\n", "<<: *a\n"]


def replace_value_after(text: str, opener: str, rng: random.Random):
    """The value after one random match of opener (up to the line, item or map end)
    replaced by an edge value; None when opener does not occur."""
    spots = [m.end() for m in re.finditer(opener, text)]
    if not spots:
        return None
    start = rng.choice(spots)
    end = start
    while end < len(text) and text[end] not in "\n,]}":
        end += 1
    return text[:start] + rng.choice(EDGE_VALUES) + text[end:]


def mutate_text(text: str, rng: random.Random) -> str:
    """One random edit; structure-aware edits keep the file mostly parseable."""
    kind = rng.randrange(9)
    if not text:
        return rng.choice(EDGE_VALUES)
    i = rng.randrange(len(text) + 1)
    j = min(len(text), i + rng.randrange(1, 40))
    if kind == 0:  # replace a scalar after "key: " with an edge value
        edited = replace_value_after(text, r":[ \t]+", rng)
        if edited is not None:
            return edited
    if kind == 1:  # replace a list item / JSON value with an edge value
        edited = replace_value_after(text, r"(- |\[|, )", rng)
        if edited is not None:
            return edited
    if kind == 2:
        return text[:i] + rng.choice(TOKENS) + text[i:]
    if kind == 3:
        return text[:i] + text[j:]
    if kind == 4:
        return text[:j] + text[i:j] + text[i:]  # duplicate a span (repeated keys, items)
    if kind == 5:  # flip one character to a random byte
        if i < len(text):
            return text[:i] + chr(rng.randrange(1, 256)) + text[i + 1:]
    if kind == 6:  # deep nesting
        depth = rng.choice([50, 500, 5000])
        return text[:i] + "[" * depth + "1" + "]" * depth + text[i:]
    if kind == 7:  # swap two lines
        lines = text.split("\n")
        if len(lines) > 2:
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            return "\n".join(lines)
    if kind == 8:  # truncate
        return text[:i]
    return text[:i] + rng.choice(EDGE_VALUES) + text[i:]


def mutated_json(text: str, rng: random.Random) -> str:
    """The JSON document `text` after one to three mutate_json edits."""
    doc = json.loads(text)
    for _ in range(rng.randrange(1, 4)):
        doc = mutate_json(doc, rng)
    return json.dumps(doc)


def mutate_json(doc, rng: random.Random, depth=0):
    """A structure-aware JSON mutation: a value of the wrong type or at a limit, a key gone."""
    if isinstance(doc, dict) and doc:
        key = rng.choice(list(doc))
        roll = rng.random()
        if roll < 0.15:
            del doc[key]
        elif roll < 0.6 or depth > 6:
            doc[key] = rng.choice([None, -1, 0, 2**63, 2**64, -2**63 - 1, 1e308, "x", "", [], {}, True, [1, "a"],
                                   {"a": None}, "nan"])
        else:
            doc[key] = mutate_json(doc[key], rng, depth + 1)
    elif isinstance(doc, list) and doc:
        k = rng.randrange(len(doc))
        if rng.random() < 0.3:
            doc.append(doc[k])
        else:
            doc[k] = mutate_json(doc[k], rng, depth + 1)
    else:
        return rng.choice([None, -1, 2**64, "x", [], {}, 1.5, "ok", "failed"])
    return doc


# Profile fields at the edges of what a library reads: sizes near 2^62, 2^63 and 2^64 (which
# wrapped, or were written for a %li reader), parameters a library would take literally, free
# text with line breaks (which became rules of Open MPI's file), versions that skip checks.
PROFILE_EDGES = {
    "min_bytes": [0, 1, 2**62, 2**63 - 1, 2**63, 2**64 - 1, -1],
    "max_bytes": [None, 0, 2**31 - 1, 2**31, 2**62, 2**63 - 2, 2**63 - 1, 2**64 - 1],
    "comm_size": [1, 4, 2**30, 0, -1],
    "segment_size": [-1, 0, 0.5, 1e300, 65536, 2**31],
    "channels": [0, -5, 1, 64, 65, 1e300, 2.5],
    "version": ["", "4.1.4", "6.0.0", "5.0.7", "x", "4.1.4\n0 9 9 9"],
    "platform": ["local", "a\n# x\n2 1", "a\rb", "\u0085", "\u2028"],
    "up_module": [0, 1, -1, 7, 0.5, 1e300, 2**63],
    "low_module": [0, 1, -1, 7, 0.5, 1e300, 2**63],
    "default_ran": ["no_such_alg", "../../x", "", "ring;x", "default"],
}
# Edits no profile may hold (profile.cpp's parameter bounds, default_ran_check.cpp): pico must refuse them.
PROFILE_BAD = {
    "segment_size": [-1, 0.5, 1e300, 2**31], "channels": [0, -5, 65, 1e300, 2.5], "comm_size": [0, -1],
    "up_module": [-1, 7, 0.5, 1e300, 2**63], "low_module": [-1, 7, 0.5, 1e300, 2**63],
    "default_ran": ["../../x", "", "ring;x"],
}
# A default_ran name no catalogue has: bad where pico has the library's catalogue (for others, a name of
# letters, digits and '_' is accepted: docs/tuning.md).
CATALOGUED_LIBRARIES = ("openmpi", "mpich", "nccl")


def profile_known_bad(doc) -> bool:
    """Whether the profile holds a value PROFILE_BAD says no profile may (its final state: a later edit
    may overwrite an earlier one)."""
    def bad(field, value):
        return not isinstance(value, bool) and value in PROFILE_BAD.get(field, [])
    library = doc.get("library") if isinstance(doc, dict) else None
    catalogued = isinstance(library, dict) and library.get("name") in CATALOGUED_LIBRARIES
    rules = doc.get("rules") if isinstance(doc, dict) else None
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, dict):
            continue
        if "comm_size" in rule and bad("comm_size", rule["comm_size"]):
            return True
        for rg in rule.get("ranges") if isinstance(rule.get("ranges"), list) else []:
            if not isinstance(rg, dict):
                continue
            params = rg.get("params") if isinstance(rg.get("params"), dict) else {}
            if any(bad(k, v) for k, v in params.items() if k in PROFILE_BAD):
                return True
            for ran in rg.get("default_ran") if isinstance(rg.get("default_ran"), list) else []:
                name = ran.get("algorithm") if isinstance(ran, dict) else None
                if bad("default_ran", name) or (catalogued and name == "no_such_alg"):
                    return True
    return False


def mutate_profile(doc, rng: random.Random):
    """A profile edit at one of PROFILE_EDGES, where the structure allows it."""
    field = rng.choice(list(PROFILE_EDGES))
    value = rng.choice(PROFILE_EDGES[field])
    rules = doc.get("rules") if isinstance(doc, dict) else None
    if field in ("version",) and isinstance(doc.get("library"), dict):
        doc["library"][field] = value
    elif field == "platform":
        doc["platform"] = value
    elif isinstance(rules, list) and rules and isinstance(rules[0], dict):
        rule = rng.choice(rules)
        if not isinstance(rule, dict):
            return doc
        if field == "comm_size":
            rule["comm_size"] = value
            return doc
        elif isinstance(rule.get("ranges"), list) and rule["ranges"]:
            k = rng.randrange(len(rule["ranges"]))
            rng_ = rule["ranges"][k]
            if not isinstance(rng_, dict):
                return doc
            if field == "default_ran":  # what the library's default ran: a name it must have
                rng_["default_ran"] = [{"bytes": rng_.get("min_bytes", 0), "algorithm": value}]
                return doc
            if field in ("min_bytes", "max_bytes"):
                rng_[field] = value
                # Keep the ranges contiguous half of the time, so that the edit reaches the exports.
                if rng.random() < 0.5 and field == "max_bytes" and k + 1 < len(rule["ranges"]) and value is not None:
                    if isinstance(rule["ranges"][k + 1], dict):
                        rule["ranges"][k + 1]["min_bytes"] = value + 1
            else:
                rng_.setdefault("params", {})
                if isinstance(rng_["params"], dict):
                    rng_["params"][field] = value
                    return doc
    return doc


# Each profile seed (tests/data/export/NAME.profile.json) and the format of its library.
PROFILE_FORMATS = {
    "openmpi-4.1.4": "ompi-rules", "openmpi-5.0.7": "ompi-rules", "openmpi-6.0.0": "ompi-json",
    "mpich-4.0.2": "mpich-json", "nccl": "nccl-tuner", "nccl-one-choice": "nccl-env", "ucc": "ucc-tune",
    "intelmpi": "intel-mpi", "openmpi-4.1.4-han": "ompi-han-rules", "mpich-4.0.2-ch4": "mpich-ch4-json",
}
EXPORT_DATA = ROOT / "tests/data/export"
MPICH_DEFAULTS = EXPORT_DATA / "mpich-4.0.2-defaults.json"
MPICH_CH4_DEFAULTS = EXPORT_DATA / "mpich-4.0.2-ch4-defaults.json"
TRACES = ROOT / "tests/data/traces/split4"
# JSON kinds: mutated as JSON documents most of the time, as text otherwise.
JSON_KINDS = ("report", "profile", "mpich-defaults", "model")
# A replay's GOAL is capped so that a mutated size or iteration count is refused, not written.
REPLAY_CAP = ["--max-output", "4MiB", "--threads", "1"]
# Kind results: the seed run's experiment (a second or two on 2 cores), and a PATH without a launcher for
# `run --resume`, so that a resume can rebuild the report or refuse but never start ranks.
RESULTS_EXPERIMENT = """\
name: fuzz-results
description: the seed results directory of tests/fuzz/mutate_inputs.py
collectives: [allreduce]
sizes: [64B, 1KiB]
processes: [2]
timing: {warmup: 1, min_iterations: 3, max_iterations: 20, time_budget: 20ms, case_timeout: 60s}
"""
NO_LAUNCHER_PATH = "PATH=/nonexistent/pico-fuzz-no-launcher"
# Kind count-matrix's seed: 4 ranks, a comment, commas and spaces.
COUNT_MATRIX = "# sender 0 first\n0 1 2 3\n1, 0, 1, 2\n2 1 0 1  # rank 2\n3 2 1 0\n"
CHAKRA_WORKLOAD = ROOT / "tests/data/chakra/workload.yaml"
MAX_ARGUMENT = 100_000  # bytes of one argument (Linux takes 128 KiB, then E2BIG)
# The kinds fuzzed without --kinds: all but results and tune, which need MPI for their seeds, and predict,
# catalog (issue 66), which CTest runs on their own.
OPT_IN_KINDS = ("results", "tune", "predict", "catalog")


def seeds():
    """(kind, name, text) for every seed file; kind picks how pico reads it."""
    out = []
    for name in PROFILE_FORMATS:
        out.append(("profile", name, (EXPORT_DATA / f"{name}.profile.json").read_text()))
    out.append(("mpich-defaults", MPICH_DEFAULTS.name, MPICH_DEFAULTS.read_text()))
    out.append(("model", "model-example.json", (ROOT / "tests/data/model-example.json").read_text()))
    out.append(("workload", "workload-halo.yaml", (ROOT / "configs/simulation/workload-halo.yaml").read_text()))
    for p in sorted(TRACES.glob("pmpi-trace-rank-*.txt")):
        out.append(("trace", p.name, p.read_text()))
    for p in sorted((ROOT / "configs").glob("*.yaml")) + sorted((ROOT / "configs/examples").glob("*.yaml")):
        out.append(("experiment", p.name, p.read_text()))
    out.append(("experiment", "experiment_full.yaml", (ROOT / "tests/data/config/experiment_full.yaml").read_text()))
    for p in sorted((ROOT / "platforms").glob("*.yaml")):
        out.append(("platform", p.name, p.read_text()))
    out.append(("platform", "platform_test.yaml", (ROOT / "tests/data/config/platform_test.yaml").read_text()))
    out.append(("report", "report.json", (ROOT / "tests/data/report-example.json").read_text()))
    out.append(("count-matrix", "matrix-4.txt", COUNT_MATRIX))
    for pattern in ("uniform", "random:seed=7", "hot:rank=1,factor=8", "powerlaw:alpha=1.5", "distance:spread=0.5"):
        out.append(("count-pattern", pattern, pattern))
    out.append(("chakra-prefix", "app", "app"))
    out.append(("otf2", "traces.otf2", ""))
    out.append(("predict", "generated", ""))
    for name in CATALOG_SEEDS:
        out.append(("catalog", name, (ROOT / "configs/catalog" / name).read_text()))
    return out


def results_seed(pico: str, work: Path, timeout: float):
    """(the seed results directory, None), or (None, why not): a real run of RESULTS_EXPERIMENT."""
    experiment = work / "seed-experiment.yaml"
    experiment.write_text(RESULTS_EXPERIMENT)
    out = work / "seed-results"
    cmd = [pico, "run", str(experiment), "--dir", str(out), "--np", "2", "-q"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout,
                           env=dict(os.environ, NO_COLOR="1"), cwd=work)
    except subprocess.TimeoutExpired:
        return None, f"`{' '.join(cmd)}` gave no answer in {timeout} s"
    if p.returncode != 0 or not (out / "report.json").is_file():
        lines = p.stderr.strip().splitlines() or ["(nothing on stderr)"]
        said = next((line for line in lines if line.startswith("pico: error:")), lines[-1])
        return None, f"`{' '.join(cmd)}` exited {p.returncode}: {said[:300]}"
    return out, None


def results_seeds(seed_dir: Path):
    """("results", FILE, text) for every file of the seed results directory but its lock."""
    return [("results", p.name, p.read_text()) for p in sorted(seed_dir.iterdir())
            if p.is_file() and p.name != ".lock"]


OTF2_SEED = [None, None]  # (the seed archive's directory, why there is none), made by main


def otf2_seed(work: Path):
    """(an OTF2 archive's directory, None), or (None, why not): 3 ranks as Score-P writes them, by the OTF2
    library's own writer (tests/e2e/otf2_writer.py)."""
    sys.path.insert(0, str(ROOT / "tests/e2e"))
    try:
        from otf2_writer import Otf2Trace
    except ImportError as e:
        return None, f"no OTF2 Python writer ({e}; scripts/setup.sh installs python3-otf2)"
    d = work / "otf2-seed"
    t = Otf2Trace(str(d), 3)
    comm = t.comm("pair", [0, 1])
    for r in range(3):
        t.compute(r, 10_000)
        t.allreduce(r, 1024)
    for r in range(2):
        t.bcast(r, 64, 0, comm)
    t.send(0, 2, 5, 256)
    t.recv(2, 0, 5, 256)
    t.close()
    return d, None


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """A binary file changed: bytes flipped, cut short, a chunk repeated or zeroed, random bytes inserted."""
    b = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        op = rng.random()
        at = rng.randrange(len(b) + 1)
        if op < 0.35 and b:
            for _ in range(rng.randrange(1, 9)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        elif op < 0.5:
            del b[at:]
        elif op < 0.65:
            b[at:at] = b[at:at + rng.randrange(1, 4096)] * rng.randrange(1, 4)
        elif op < 0.8:
            b[at:at + rng.randrange(1, 64)] = bytes(rng.randrange(1, 64))
        else:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 32)))
    return bytes(b)


def special_in_place(path: Path, rng: random.Random):
    """Replaces path by a FIFO, a link to /dev/zero or a directory."""
    if path.exists() or path.is_symlink():
        path.unlink()
    choice = rng.random()
    if choice < 0.4:
        os.mkfifo(path)
    elif choice < 0.8:
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()


def mutate_json_lines(text: str, rng: random.Random) -> str:
    """One record of a JSON-lines file mutated as JSON: in its place, or appended as a later
    record (the latest record of a case wins)."""
    lines = text.split("\n")
    records = [k for k, line in enumerate(lines) if line.strip()]
    if not records:
        return mutate_text(text, rng)
    k = rng.choice(records)
    doc = json.loads(lines[k])
    for _ in range(rng.randrange(1, 4)):
        doc = mutate_json(doc, rng)
    if rng.random() < 0.3:
        lines.insert(len(lines) - 1 if lines[-1] == "" else len(lines), json.dumps(doc))
    else:
        lines[k] = json.dumps(doc)
    return "\n".join(lines)


def make_input(index: int, seed: int, corpus):
    """(kind, name, text, expectation): "valid" (unmutated: must be accepted), "bad" (an edit known to
    make it invalid: must be refused) or None (a random mutation: either, in the error format)."""
    rng = random.Random(seed * 1_000_003 + index)
    kind, name, text = rng.choice(corpus)
    if kind == "predict":  # generated valid profiles: the text is the seed of the generator
        return kind, name, str(rng.randrange(1 << 62)), "valid"
    if kind in ("catalog", "tune", "results", "profile") and rng.random() < UNMUTATED:
        return kind, name, text, "valid"
    if kind == "catalog" and name.endswith(".json"):  # a ch4 tree: JSON mutations, or text ones
        if rng.random() < 0.2:
            edited = tree_hostile(text, rng)
            return kind, name, edited, tree_expectation(edited)
        if rng.random() < 0.6:
            text = mutated_json(text, rng)
        else:
            for _ in range(rng.randrange(1, 4)):
                text = mutate_text(text, rng)
        return kind, name, text, tree_expectation(text)
    if kind == "catalog" and rng.random() < 0.3:
        edited = catalog_hostile(text, rng)
        if edited is not None:
            return kind, name, edited, "bad"
    if kind == "tune" and rng.random() < 0.15:
        edited = report_bad_median(text, rng)
        if edited is not None:
            return kind, name, edited, "bad"
    if kind == "results" and rng.random() < 0.25:
        edited = results_hostile(name, text, rng)
        if edited is not None:
            return kind, name, edited, "bad"
    if kind == "profile" and rng.random() < 0.6:
        doc = json.loads(text)
        for _ in range(1 if rng.random() < 0.7 else 2):
            doc = mutate_profile(doc, rng)
        return kind, name, json.dumps(doc), "bad" if profile_known_bad(doc) else None
    if kind == "tune" and rng.random() < 0.6:
        return kind, name, mutated_json(text, rng), None
    elif kind == "results" and name.endswith(".json") and rng.random() < 0.6:
        text = mutated_json(text, rng)
    elif kind == "results" and name.endswith(".jsonl") and rng.random() < 0.6:
        text = mutate_json_lines(text, rng)
    elif kind in JSON_KINDS and rng.random() < 0.6:
        text = mutated_json(text, rng)
    else:
        for _ in range(rng.randrange(1, 4)):
            text = mutate_text(text, rng)
    return kind, name, text, None


def command_for(pico: str, kind: str, name: str, path: Path):
    if kind == "profile":
        extra = {"mpich-json": ["--mpich-defaults", str(MPICH_DEFAULTS)],
                 "mpich-ch4-json": ["--mpich-ch4-defaults", str(MPICH_CH4_DEFAULTS)],
                 "nccl-tuner": ["--nccl-channels", "8"]}.get(PROFILE_FORMATS[name], [])
        return [pico, "export", "--format", PROFILE_FORMATS[name], *extra, str(path)]
    if kind == "mpich-defaults":
        return [pico, "export", str(EXPORT_DATA / "mpich-4.0.2.profile.json"), "--format", "mpich-json",
                "--mpich-defaults", str(path)]
    if kind == "model":
        return [pico, "export", str(EXPORT_DATA / "openmpi-4.1.4.profile.json"), "--format", "astra-sim",
                "-o", f"{path}.astra", "--model", str(path)]
    if kind in ("workload", "trace"):
        return [pico, "replay", *REPLAY_CAP, "-o", f"{path}.goal", str(path)]
    if kind == "count-matrix":
        return [pico, "schedule", "alltoallv", "--algorithm", "pairwise", "--np", "4", "--size", "64B",
                "--counts", f"file:{path}", "-o", os.devnull]
    if kind == "otf2":
        return [pico, "replay", *REPLAY_CAP, "--unknown", "skip", "-o", f"{path}.goal", str(path / "traces.otf2")]
    if kind == "experiment":
        return [pico, "validate", "--as", "experiment", str(path)]
    if kind == "platform":
        return [pico, "validate", "--as", "platform", str(path)]
    return [pico, "report", str(path), "--format", "table"]


def bad_format(stderr: str):
    # split("\n"), not splitlines(): the format is one line per "\n"; other
    # breaks (NEL, U+2028) inside a quoted value are pico's to escape.
    lines = [line for line in stderr.split("\n") if line.strip()]
    # Warnings about what was read (an oversubscribed run's report) may come before the error.
    while lines and lines[0].startswith("pico: warning: "):
        lines.pop(0)
        while lines and lines[0].startswith("  "):  # the warning's further lines: wrapped to 100 columns
            lines.pop(0)
    if not lines:
        return "exit 2 with nothing on stderr"
    if not FIRST_LINE.match(lines[0]):
        return f"first line not 'pico: error: WHERE: WHAT': {lines[0][:200]!r}"
    if "[json.exception." in lines[0] or "yaml-cpp:" in lines[0]:
        return f"a library's exception text instead of what is wrong where: {lines[0][:200]!r}"
    for line in lines[1:]:
        if not OTHER_LINE.match(line):
            return f"line not in the error format: {line[:200]!r}"
    return None


def judge(p, writes_report: bool = False, expect=None):
    """(verdict, why) for a finished command: accepted, rejected, or a finding. A verb that
    rebuilds a report (collect, run --resume) exits 1 when a case in it failed, and 3 when it
    could not write: both fine, the second in the error format. Whatever the exit, a library's
    own text (RAW_TEXTS) is a finding ("raw"). With expect "bad" (make_input) an acceptance is a
    finding ("accepted-bad"), with "valid" a refusal ("refused-valid")."""
    found = raw_text(p.stderr)
    if found is not None and p.returncode >= 0:
        raw, at = found
        return "raw", f"exit {p.returncode}, {raw!r} in: {p.stderr[max(0, at - 200):at + 200]!r}"
    verdict, why = judge_exit(p, writes_report)
    if expect == "bad" and verdict == "accepted":
        return "accepted-bad", f"exit {p.returncode} on an input known bad: {p.stdout[-300:]!r}"
    if expect == "valid" and verdict == "rejected":
        return "refused-valid", f"an input known valid refused: {p.stderr[-400:]!r}"
    return verdict, why


def judge_exit(p, writes_report: bool):
    """(verdict, why) by the exit code and the error format alone."""
    if p.returncode == 0 or (writes_report and p.returncode == 1 and "report: " in p.stdout):
        return "accepted", None
    if p.returncode == 2 or (writes_report and p.returncode == 3):
        why = bad_format(p.stderr)
        return ("format", why) if why else ("rejected", None)
    if p.returncode < 0:
        return "crash", f"signal {-p.returncode}: {p.stderr[-400:]}"
    return "exit", f"exit {p.returncode}: {p.stderr[-400:]}"


def run_command(cmd, timeout: float, cwd=ROOT):
    """The finished process, or None when it gave no answer within timeout."""
    env = dict(os.environ, NO_COLOR="1")
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout, env=env,
                              cwd=cwd)
    except subprocess.TimeoutExpired:
        return None


def results_commands(pico: str, path: Path, work: Path, index: int):
    """(verb, directory it runs on, command, whether it rebuilds report.json, whether it must refuse
    what hostile_edits.results_hostile smuggles in) for a results input. report and the dry run only
    read DIR; collect and run --resume write there, so each gets its own copy."""
    collect, resume = work / f"in-{index}.collect", work / f"in-{index}.resume"
    return [("report", path, [pico, "report", str(path), "--format", "table"], False, False),
            ("collect", collect, [pico, "collect", str(collect), "--no-wait", "-q"], True, False),
            ("resume", resume, ["env", NO_LAUNCHER_PATH, pico, "run", "--resume", str(resume), "-q"], True, True),
            ("resume-dry", path, [pico, "run", "--resume", str(path), "--dry-run"], False, True)]


def copy_keeping_modes(source: Path, target: Path):
    """copytree, the modes of the directory and its files kept (a permission edit must reach each verb)."""
    shutil.copytree(source, target)
    shutil.copymode(source, target)


def run_results(pico: str, work: Path, timeout: float, index: int, name: str, text: str, seed_dir: Path,
                expect=None):
    """A copy of the seed directory with FILE mutated, read by each verb of results_commands.
    Returns one outcome per verb: (index, kind, verdict, why, input, command, directory it names).
    A bad input (expect "bad") is sometimes made by permissions alone: the directory or the file
    writable by others, which the resumes must refuse."""
    path = work / f"in-{index}"
    shutil.copytree(seed_dir, path)
    (path / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    rng = random.Random(index)
    if expect is None and rng.random() < 0.05:
        expect = "bad"
        os.chmod(path if rng.random() < 0.5 else path / name, 0o777 if rng.random() < 0.5 else 0o666)
    outcomes = []
    for verb, target, cmd, writes_report, guards in results_commands(pico, path, work, index):
        if target != path:
            copy_keeping_modes(path, target)
        p = run_command(cmd, timeout)
        if p is None:
            verdict, why = "hang", f"no answer in {timeout} s"
        else:
            verdict, why = judge(p, writes_report, expect if guards or expect == "valid" else None)
            if verdict == "accepted" and writes_report and "report: " in p.stdout:
                # The oracle: a report pico rebuilt from DIR, pico report reads.
                back = run_command([pico, "report", str(target), "--format", "table"], timeout)
                if back is None or back.returncode != 0:
                    verdict = "unreadable"
                    why = ("pico report gave no answer" if back is None else
                           f"pico report of the report it wrote: exit {back.returncode}: {back.stderr[-400:].rstrip()}")
        if why is not None:
            why = f"{name} mutated: {why}"
        outcomes.append((index, f"results/{verb}", verdict, why, path, cmd, target))
        if target != path:
            shutil.rmtree(target, ignore_errors=True)
    if all(o[2] in ("accepted", "rejected") for o in outcomes):
        shutil.rmtree(path, ignore_errors=True)
    return outcomes


def run_one(pico: str, work: Path, timeout: float, index: int, seed: int, corpus, made_seeds=None):
    """The outcomes of input INDEX: (index, kind, verdict, why, input, command, path the command names)."""
    kind, name, text, expect = make_input(index, seed, corpus)
    if kind == "results":
        return run_results(pico, work, timeout, index, name, text, made_seeds["results"], expect)
    if kind == "predict":
        return run_predict(pico, work, timeout, index, int(text))
    if kind == "catalog":
        return run_catalog(pico, work, timeout, index, name, text, expect)
    if kind == "tune":
        return run_tune(pico, work, timeout, index, name, text, expect, made_seeds["tune"])
    suffix = ".json" if kind in JSON_KINDS else ".yaml"
    path = work / f"in-{index}{suffix}"
    rng = random.Random(seed * 7_000_003 + index)  # the special kinds' own choices
    if kind == "count-pattern":  # the text is the argument: no file
        arg = text.replace("\x00", "")[:MAX_ARGUMENT]
        cmd = [pico, "schedule", "alltoallv", "--algorithm", "pairwise", "--np", "4", "--size", "64B",
               "--counts", arg, "-o", os.devnull]
        return [finish_one(index, kind, run_command(cmd, timeout), timeout, cmd, work / f"in-{index}")]
    if kind == "chakra-prefix":  # the prefix's bytes, in a directory of their own; '..' cannot lead out of it
        path = work / f"in-{index}"
        path.mkdir()
        prefix = text.encode("utf-8", "surrogateescape").replace(b"..", b"__").replace(b"\x00", b"")
        if rng.random() < 0.2:
            prefix += bytes([rng.choice([0x7f, 0x85, 0x9b, 0xff, 0xc3, 0x1b, ord("/")])])
        if rng.random() < 0.1:
            prefix = prefix * rng.randrange(20, 80)
        prefix = prefix[:MAX_ARGUMENT]
        cmd = [pico, "replay", str(CHAKRA_WORKLOAD), "--format", "chakra", "--profile",
               str(EXPORT_DATA / "openmpi-4.1.4.profile.json"), "-o", bytes(path) + b"/" + prefix]
        outcome = finish_one(index, kind, run_command(cmd, timeout), timeout, cmd, path)
        if outcome[2] in ("accepted", "rejected"):
            shutil.rmtree(path, ignore_errors=True)
        return [outcome]
    if kind == "otf2":  # one member of the archive mutated, the others as written
        path = work / f"in-{index}"
        shutil.copytree(OTF2_SEED[0], path, symlinks=True)
        members = sorted(p for p in path.rglob("*") if p.is_file())
        member = rng.choice(members)
        if rng.random() < 0.1:
            special_in_place(member, rng)
        else:
            member.write_bytes(mutate_bytes(member.read_bytes(), rng))
    elif kind == "count-matrix" and rng.random() < 0.1:
        special_in_place(path, rng)
    elif kind == "trace":  # one rank's file mutated, the others as they are
        path = work / f"in-{index}"
        path.mkdir()
        for p in TRACES.glob("pmpi-trace-rank-*.txt"):
            shutil.copy(p, path / p.name)
        (path / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    else:
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
    cmd = command_for(pico, kind, name, path)
    p = run_command(cmd, timeout)
    if p is None:
        return [(index, kind, "hang", f"no answer in {timeout} s", path, cmd, path)]
    verdict, why = judge(p, expect=expect if kind == "profile" else None)
    if verdict == "accepted" and kind == "profile":  # the oracle: what pico accepted, its library reads as pico chose
        why = disagreement(text, PROFILE_FORMATS[name], p.stdout)
        if why is not None:
            verdict = "disagree"
    for written in (Path(f"{path}.goal"), Path(f"{path}.goal.baseline.goal")):
        written.unlink(missing_ok=True)
    shutil.rmtree(f"{path}.astra", ignore_errors=True)
    if verdict in ("accepted", "rejected"):
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    return [(index, kind, verdict, why, path, cmd, path)]


def run_predict(pico: str, work: Path, timeout: float, index: int, generator_seed: int):
    """Kind predict (predict_oracle.py): a generated valid profile (family tuned, han or ch4), exported in
    its family's formats, then predict at two points, each of which must name the exported files' choice."""
    rng = random.Random(generator_seed)
    case = predict_oracle.generate(rng)
    family = case["family"]
    path = work / f"in-{index}.profile.json"
    path.write_text(case["text"])
    outcomes, exported = [], {}
    for fmt, extra in predict_oracle.exports(family):
        cmd = [pico, "export", "--format", fmt, *extra, str(path)]
        p = run_command(cmd, timeout)
        if p is None:
            outcomes.append((index, f"predict/{family}/export", "hang", f"no answer in {timeout} s", path, cmd, path))
            continue
        verdict, why = judge(p, expect="valid")
        outcomes.append((index, f"predict/{family}/export", verdict, why, path, cmd, path))
        if verdict == "accepted":
            exported[fmt] = p.stdout
    if len(exported) == len(predict_oracle.exports(family)):
        for np, nbytes in predict_oracle.probe_points(rng, case["coll"], case["sizes"], case["text"]):
            cmd = predict_oracle.predict_command(pico, case["coll"], np, nbytes, path)
            q = run_command(cmd, timeout)
            if q is None:
                outcomes.append((index, f"predict/{family}/predict", "hang", f"no answer in {timeout} s", path, cmd,
                                 path))
                continue
            verdict, why = judge(q, expect="valid")
            if verdict == "accepted":
                why = predict_oracle.disagreement(case, exported, np, nbytes, q.stdout)
                verdict = "accepted" if why is None else "disagree"
            outcomes.append((index, f"predict/{family}/predict", verdict, why, path, cmd, path))
    if all(o[2] == "accepted" for o in outcomes):
        path.unlink()
    return outcomes


# Kind catalog: every catalogue pico reads (configs/catalog/*.yaml, and the ch4 trees of configs/catalog/mpich/
# that mpich.yaml's components name), in a directory given as PICO_CATALOG_DIR (the documented opt-in,
# docs/algorithms.md), read by `pico list algorithms` (every catalogue), a dry run of an experiment of its
# library and the exports that read it. Each seed (its path under configs/catalog), the library whose catalogue
# reads it, the backend and platform of its dry run, and its exports.
def _export(profile: str, fmt: str, *extra: str):
    return [str(EXPORT_DATA / profile), "--format", fmt, *extra]


_OMPI = {"library": "openmpi", "backend": "mpi", "platform": "local.yaml",
         "exports": {"ompi-rules": _export("openmpi-4.1.4.profile.json", "ompi-rules"),
                     "ompi-han-rules": _export("openmpi-4.1.4-han.profile.json", "ompi-han-rules")}}
_MPICH = {"library": "mpich", "backend": "mpi", "platform": "local-mpich.yaml",
          "exports": {"mpich-json": _export("mpich-4.0.2.profile.json", "mpich-json", "--mpich-defaults",
                                            str(MPICH_DEFAULTS)),
                      "mpich-ch4-json": _export("mpich-4.0.2-ch4.profile.json", "mpich-ch4-json",
                                                "--mpich-ch4-defaults", str(MPICH_CH4_DEFAULTS))}}
CATALOG_SEEDS = {
    "openmpi.yaml": _OMPI,
    "mpich.yaml": _MPICH,
    **{f"mpich/ch4-composition-{c}.json": _MPICH for c in ("alpha", "beta", "gamma")},
    "nccl.yaml": {"library": "nccl", "backend": "nccl", "platform": "local.yaml",
                  "exports": {"nccl-tuner": _export("nccl.profile.json", "nccl-tuner", "--nccl-channels", "8"),
                              "nccl-env": _export("nccl-one-choice.profile.json", "nccl-env")}},
    "nccl_compressed.yaml": {"library": "nccl_compressed", "backend": "nccl_compressed", "platform": "local.yaml",
                             "exports": {}},
    "compressed.yaml": {"library": "compressed", "backend": "compressed", "platform": "local.yaml", "exports": {}},
    "reference.yaml": {"library": "reference", "backend": "reference", "platform": "local.yaml", "exports": {}},
}
CATALOG_EXPERIMENT = """name: fuzz-catalog
collectives: [allreduce, bcast]
sizes: [64B, 64KiB]
processes: [2, 4]
backends: [{library: mpi, algorithms: all}]
"""
# The other backends' experiment: float32 sums (what the compressed ones take), one and two ranks.
CATALOG_BACKEND_EXPERIMENT = """name: fuzz-catalog-{backend}
collectives: [{collectives}]
sizes: [64B, 64KiB]
dtypes: [float32]
ops: [sum]
processes: [1, 2]
backends: [{{library: {backend}, algorithms: all}}]
"""
# Where the catalogue is, by share of the inputs: PICO_CATALOG_DIR absolute (the rest), relative to the
# working directory (the working directory's catalogue, asked for), or planted in ./configs/catalog with
# PICO_CATALOG_DIR unset, which pico must not read (issue 66, finding 2): the input's own text is then
# irrelevant, pico's own catalogue answers (exit 0) and `pico list algorithms` names it.
CATALOG_RELATIVE, CATALOG_PLANTED = 0.08, 0.07


def catalog_experiment(backend: str) -> str:
    if backend == "mpi":
        return CATALOG_EXPERIMENT
    collectives = "allreduce" if "compressed" in backend else "allreduce, bcast"
    return CATALOG_BACKEND_EXPERIMENT.format(backend=backend, collectives=collectives)


def strict_json(text: str):
    """The document, or None where a strict JSON reader refuses it (NaN, Infinity; a leading BOM is skipped,
    as pico's reader does)."""
    def refuse(constant):
        raise ValueError(constant)
    try:
        return json.loads(text[1:] if text.startswith("\ufeff") else text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return None


def tree_expectation(text: str):
    """A ch4 tree that is not a JSON object is bad (MPICH aborts at MPI_Init on it); any other either."""
    doc = strict_json(text)
    return "bad" if not isinstance(doc, dict) else None


def run_catalog(pico: str, work: Path, timeout: float, index: int, name: str, text: str, expect):
    """A catalogue directory (pico's data files beside it; for a ch4 tree, mpich.yaml too) with NAME mutated,
    sometimes replaced by a FIFO, directory or link to /dev/zero (bad; a tree also by a link out of the
    directory), read by each verb with PICO_CATALOG_DIR set to it (or, for some inputs, to it relative to the
    working directory, or unset with the directory planted as ./configs/catalog)."""
    path = work / f"in-{index}"
    catdir = path / "configs/catalog"
    catdir.mkdir(parents=True)
    seed = CATALOG_SEEDS[name]
    for data in (ROOT / "configs/catalog").iterdir():
        if data.is_dir():
            shutil.copytree(data, catdir / data.name)
    if "/" in name:
        shutil.copy(ROOT / f"configs/catalog/{seed['library']}.yaml", catdir)
    (catdir / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    rng = random.Random(index * 31 + 7)
    if expect is None and rng.random() < 0.05:
        if "/" in name and rng.random() < 0.4:
            (catdir / name).unlink()
            (catdir / name).symlink_to(rng.choice(["/etc/passwd", "../../../../x.json", str(ROOT / "README.md")]))
        else:
            special_in_place(catdir / name, rng)
        expect = "bad"
    where = rng.random()
    lib = seed["library"]
    if where < CATALOG_PLANTED:
        env, cwd, expect = ["env", "-u", "PICO_CATALOG_DIR"], path, "valid"
        read = ROOT / f"configs/catalog/{lib}.yaml"
    elif where < CATALOG_PLANTED + CATALOG_RELATIVE:
        env, cwd, read = ["env", "PICO_CATALOG_DIR=configs/catalog"], path, catdir / f"{lib}.yaml"
    else:
        env, cwd, read = ["env", f"PICO_CATALOG_DIR={catdir}"], ROOT, catdir / f"{lib}.yaml"
    experiment = path / "experiment.yaml"  # outside the catalogue directory: each YAML file there is a catalogue
    experiment.write_text(catalog_experiment(seed["backend"]))
    verbs = [("list", env + [pico, "list", "algorithms"]),
             ("dry-run", env + [pico, "run", str(experiment), "--platform", str(ROOT / "platforms" / seed["platform"]),
                                "--dry-run", "--dir", str(path / "out")])]
    verbs += [(f"export/{fmt}", env + [pico, "export", *args, "-o", str(path / f"exported.{fmt}")])
              for fmt, args in seed["exports"].items()]
    outcomes = []
    for verb, cmd in verbs:
        p = run_command(cmd, timeout, cwd=cwd)
        if p is None:
            verdict, why = "hang", f"no answer in {timeout} s"
        else:
            verdict, why = judge(p, expect=expect)
            if verdict == "accepted" and verb == "list" and f"catalogue of {lib}: {read}\n" not in p.stdout:
                verdict, why = "unsaid", f"pico list algorithms does not name {read} as {lib}'s catalogue"
        if why is not None:
            why = f"{name} mutated: {why}"
        outcomes.append((index, f"catalog/{verb}", verdict, why, path, cmd, path))
    if all(o[2] in ("accepted", "rejected") for o in outcomes):
        shutil.rmtree(path, ignore_errors=True)
    return outcomes


def tune_seed(pico: str, work: Path, timeout: float):
    """({"sweep": report, "tuned": report, "profile": path}, None) or (None, why not): a sweep of three
    allreduce algorithms on 2 ranks, its profile, and a run of the default with that profile loaded."""
    sweep = work / "tune-sweep.yaml"
    sweep.write_text(RESULTS_EXPERIMENT.replace("name: fuzz-results", "name: fuzz-tune")
                     + "backends: [{library: mpi, algorithms: [default, ring, recursive_doubling]}]\n")
    profile = work / "tune-profile.json"
    steps = [[pico, "run", str(sweep), "--dir", str(work / "tune-sweep"), "--np", "2", "-q"],
             [pico, "tune", str(work / "tune-sweep"), "-o", str(profile), "-q"],
             [pico, "run", str(work / "seed-experiment.yaml"), "--dir", str(work / "tune-tuned"), "--np", "2", "-q",
              "--profile", str(profile)]]
    (work / "seed-experiment.yaml").write_text(RESULTS_EXPERIMENT)
    for cmd in steps:
        p = run_command(cmd, timeout)
        if p is None or p.returncode != 0:
            return None, f"`{' '.join(cmd)}`: " + ("no answer" if p is None else f"exit {p.returncode}: {p.stderr[-300:]}")
    return {"sweep": work / "tune-sweep/report.json", "tuned": work / "tune-tuned/report.json",
            "profile": profile}, None


def run_tune(pico: str, work: Path, timeout: float, index: int, name: str, text: str, expect, seed):
    """The sweep's or the tuned run's report.json mutated, given to `pico tune` (the sweep) and to
    `pico tune --check SWEEP TUNED --profile P`."""
    path = work / f"in-{index}.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    sweep = path if name == "sweep" else seed["sweep"]
    tuned = path if name == "tuned" else seed["tuned"]
    verbs = [("tune", [pico, "tune", str(sweep), "-o", f"{path}.profile", "-q"], name == "sweep"),
             ("check", [pico, "tune", "--check", str(sweep), str(tuned), "--profile", str(seed["profile"])], True)]
    outcomes = []
    for verb, cmd, reads_it in verbs:
        p = run_command(cmd, timeout)
        if p is None:
            verdict, why = "hang", f"no answer in {timeout} s"
        else:
            verdict, why = judge(p, expect=expect if reads_it else "valid")
        if why is not None:
            why = f"{name} report mutated: {why}"
        outcomes.append((index, f"tune/{verb}", verdict, why, path, cmd, path))
    Path(f"{path}.profile").unlink(missing_ok=True)
    if all(o[2] in ("accepted", "rejected") for o in outcomes):
        path.unlink()
    return outcomes


def finish_one(index, kind, p, timeout, cmd, path):
    """The outcome of a kind whose input is an argument (no file to keep: the command holds it)."""
    if p is None:
        return (index, kind, "hang", f"no answer in {timeout} s", path, cmd, path)
    verdict, why = judge(p)
    return (index, kind, verdict, why, path, cmd, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pico", default=str(ROOT / "build/pico"))
    ap.add_argument("--count", type=int, default=200, help="inputs to try ($PICO_FUZZ_COUNT, when set, wins)")
    ap.add_argument("--kinds", default="",
                    help="comma-separated kinds to fuzz (default: all but results): profile, report, results, ...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--keep", default=None, help="directory for the inputs behind findings")
    ap.add_argument("--real-launches", type=int, default=0, metavar="N",
                    help="with kind predict: also run N generated profiles in real Open MPI on 2 to 5 ranks "
                         "(predict_oracle.real_launch_check)")
    args = ap.parse_args()
    if os.environ.get("PICO_FUZZ_COUNT"):
        args.count = int(os.environ["PICO_FUZZ_COUNT"])

    args.pico = str(Path(args.pico).resolve())
    corpus = seeds()
    wanted = set(args.kinds.split(",")) if args.kinds else {kind for kind, _, _ in corpus} - set(OPT_IN_KINDS)
    corpus = [seed for seed in corpus if seed[0] in wanted]
    unknown = wanted - {kind for kind, _, _ in corpus} - set(OPT_IN_KINDS)
    if unknown or not wanted:
        ap.error(f"no seeds of kinds {args.kinds}")
    work = Path(tempfile.mkdtemp(prefix="pico-fuzz-"))
    if "otf2" in wanted:
        OTF2_SEED[:] = otf2_seed(work)
        if OTF2_SEED[0] is None:
            print(f"fuzz: kind otf2 skipped: {OTF2_SEED[1]}")
            corpus = [c for c in corpus if c[0] != "otf2"]
    made_seeds = {}  # the seeds made by running pico: kind results' directory, kind tune's reports
    if "results" in wanted:
        seed_dir, why = results_seed(args.pico, work, max(args.timeout, 120.0))
        if seed_dir is None:
            print(f"fuzz: kind results skipped: the seed run failed (no MPI here?): {why}")
        else:
            corpus += results_seeds(seed_dir)
            made_seeds["results"] = seed_dir
    if "tune" in wanted:
        tuned, why = tune_seed(args.pico, work, max(args.timeout, 120.0))
        if tuned is None:
            print(f"fuzz: kind tune skipped: a seed run failed (no MPI here?): {why}")
        else:
            made_seeds["tune"] = tuned
            corpus += [("tune", name, tuned[name].read_text()) for name in ("sweep", "tuned")]
    if not corpus:
        shutil.rmtree(work, ignore_errors=True)
        return 77  # only results was asked for, and it was skipped (CTest: SKIP_RETURN_CODE 77)
    counts = {}
    findings = []
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args.pico, work, args.timeout, i, args.seed, corpus, made_seeds)
                   for i in range(args.count)]
        try:
            for f in concurrent.futures.as_completed(futures):
                for index, kind, verdict, why, path, cmd, target in f.result():
                    counts.setdefault(kind, {}).setdefault(verdict, 0)
                    counts[kind][verdict] += 1
                    if why is not None and verdict not in ("rejected",):
                        findings.append((index, kind, verdict, why, path, cmd, target))
        except BaseException:  # the fuzz itself failed (pico gone, Ctrl-C): stop, not after every other input
            pool.shutdown(wait=True, cancel_futures=True)
            shutil.rmtree(work, ignore_errors=True)
            raise
    if args.real_launches and "predict" in wanted:
        launched, real_findings = predict_oracle.real_launch_check(args.pico, work, args.real_launches, args.seed,
                                                                   run_command, max(args.timeout, 300.0))
        counts.setdefault("predict/open-mpi", {})["accepted" if not real_findings else "disagree"] = launched
        for why in real_findings:
            findings.append((-1, "predict/open-mpi", "disagree", why, Path(os.devnull), ["(real launch)"], Path(os.devnull)))
    elapsed = time.monotonic() - started
    print(f"fuzz: {args.count} inputs, seed {args.seed}, {elapsed:.0f} s")
    for kind in sorted(counts):
        print(f"  {kind:<10} " + ", ".join(f"{v} {n}" for v, n in sorted(counts[kind].items())))
    if findings:
        keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pico-fuzz-findings-"))
        keep.mkdir(parents=True, exist_ok=True)
        # Findings by type (the first line of what is wrong, paths, case ids and numbers left out):
        # the first of each type is always shown and kept, then the others up to 50 in all.
        types = {}
        for finding in sorted(findings, key=lambda f: f[:3]):
            index, kind, verdict, why = finding[:4]
            line = re.sub(re.escape(str(work)) + r"/in-\d+(\.\w+)?", "DIR", why.split("\n")[0])
            line = re.sub(r"\d+", "N", re.sub(r"\b[0-9a-f]{16}\b", "ID", line))
            types.setdefault((verdict, kind, line[:240]), []).append(finding)
        firsts = [group[0] for group in types.values()]
        others = [f for group in types.values() for f in group[1:]]
        shown = firsts + sorted(others, key=lambda f: f[:3])[:max(0, 50 - len(firsts))]
        for index, kind, verdict, why, path, cmd, target in sorted(shown, key=lambda f: f[:3]):
            kept = keep / path.name
            if path.is_dir():
                shutil.copytree(path, kept, dirs_exist_ok=True, symlinks=True)
            elif path.is_file():
                shutil.copy(path, kept)
            # An argument as bytes (a Chakra prefix) is shown as the shell would need it.
            rerun = " ".join(os.fsdecode(arg).replace(str(target), str(kept)) for arg in cmd)
            copy_note = " (on a copy of it: this verb rewrites its report.json)" if target != path else ""
            print(f"FINDING {verdict} ({kind}) input {index}: {why}\n  rerun{copy_note}: {rerun}")
        print(f"fuzz: {len(findings)} finding(s) of {len(types)} type(s); inputs kept in {keep}")
        for (verdict, kind, line), group in sorted(types.items(), key=lambda t: -len(t[1])):
            print(f"  {len(group):>5} {verdict} ({kind}), first input {group[0][0]}: {line}")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
