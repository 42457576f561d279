#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks pico's ompi-json files against the reader in Open MPI 6.0's own source.

Open MPI 6.0 reads coll/tuned's JSON rules in ompi_coll_tuned_read_rules_json
(ompi/mca/coll/tuned/coll_tuned_dynamic_file.c). That reader ignores a key it
does not know, so a misspelt parameter is dropped without a word. For that
reason the grammar is taken from the source itself, not written down here:
- the keys it reads at each level, and that its integer fields are integers or
  a string starting with "inf" (coll_tuned_get_json_integer_field);
- the comm_rank_distribution names (coll_rules_comm_rank_distro_table in
  coll_tuned_dynamic_rules.c);
- the collective keys (colltype_translation_table in
  ompi/mca/coll/base/coll_base_util.c, which mca_coll_base_name_to_colltype
  parses);
- each collective's algorithm names (the <coll>_algorithms enumeration in
  coll_tuned_<coll>_decision.c; "ignore", 0, is tuned's own decision).
The top-level keys the reader skips are checked against the schema the source
ships (docs/tuning-apps/tuned_dynamic_file_schema.json). pico's own promises are
checked too: message rules ascending and disjoint, comm_size_min <= comm_size_max.

usage: check_ompi_json_grammar.py OMPI_SOURCE FILE...      (exit 1 listing each fault)
       check_ompi_json_grammar.py --source-from VAR [--pico PICO PROFILE...] FILE...
           (OMPI_SOURCE is $VAR, a v6.0.x tree; exit 77, a skip, saying why, where
           VAR is unset; with --pico, each PROFILE is exported with --format
           ompi-json first and its file checked too)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

DYNAMIC_FILE = "ompi/mca/coll/tuned/coll_tuned_dynamic_file.c"
DYNAMIC_RULES = "ompi/mca/coll/tuned/coll_tuned_dynamic_rules.c"
BASE_UTIL = "ompi/mca/coll/base/coll_base_util.c"
SCHEMA = "docs/tuning-apps/tuned_dynamic_file_schema.json"


def read(root, path):
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        sys.exit(f"{full}: not found; point at an Open MPI v6.0.x source tree")
    with open(full, encoding="utf-8") as f:
        return f.read()


def function_body(source, name):
    """The text of C function `name`'s body (from its definition's brace to the matching one)."""
    m = re.search(r"^[A-Za-z_].*\b" + re.escape(name) + r"\s*\([^;{]*\)\s*\{", source, re.M)
    if not m:
        sys.exit(f"{DYNAMIC_FILE}: no definition of {name}: the reader changed, update this check")
    depth, i = 0, m.end() - 1
    for j in range(i, len(source)):
        depth += {"{": 1, "}": -1}.get(source[j], 0)
        if depth == 0:
            return source[i:j]
    sys.exit(f"{name}: unbalanced braces")


def string_table(source, table, path):
    m = re.search(re.escape(table) + r"\[\]\s*=\s*\{(.*?)\};", source, re.S)
    if not m:
        sys.exit(f"{path}: no table {table}: the source changed, update this check")
    return re.findall(r'=\s*"([^"]+)"', m.group(1))


class Grammar:
    def __init__(self, root):
        dyn = read(root, DYNAMIC_FILE)
        msg = function_body(dyn, "coll_tuned_read_message_size_rule") + function_body(dyn, "coll_tuned_read_alg")
        self.msg_keys = set(re.findall(r'const char \*\w+_FIELD\s*=\s*"(\w+)"', msg))
        self.msg_int_keys = self.msg_keys - {"alg"}
        reader = function_body(dyn, "ompi_coll_tuned_read_rules_json")
        self.comm_int_keys = set(re.findall(r'coll_tuned_get_json_integer_field\(\s*comm_rule,\s*"(\w+)"', reader))
        self.comm_keys = self.comm_int_keys | set(re.findall(r'opal_json_get_key\(\s*comm_rule,\s*"(\w+)"', reader))
        distro = function_body(dyn, "coll_tuned_get_comm_distribution")
        self.comm_keys |= set(re.findall(r'comm_rank_distro_name\s*=\s*"(\w+)"', distro))
        self.top_keys = set(re.findall(r'opal_json_get_key\(\s*json_root,\s*"(\w+)"', reader))
        self.inf = set(re.findall(r'strncmp\("(\w+)"', function_body(dyn, "coll_tuned_get_json_integer_field")))
        rules = read(root, DYNAMIC_RULES)
        self.distributions = set(string_table(rules, "coll_rules_comm_rank_distro_table", DYNAMIC_RULES))
        self.collectives = set(string_table(read(root, BASE_UTIL), "colltype_translation_table", BASE_UTIL))
        self.algorithms = {}
        for coll in self.collectives:
            path = f"ompi/mca/coll/tuned/coll_tuned_{coll}_decision.c"
            if not os.path.isfile(os.path.join(root, path)):
                continue  # tuned has no rules for it
            m = re.search(re.escape(coll) + r"_algorithms\[\]\s*=\s*\{(.*?)\};", read(root, path), re.S)
            if m:
                self.algorithms[coll] = {name for _, name in re.findall(r'\{\s*(\d+)\s*,\s*"(\w+)"\s*\}', m.group(1))}
        with open(os.path.join(root, SCHEMA), encoding="utf-8") as f:
            self.schema_required = set(json.load(f).get("required", []))
        found = {"message-rule keys": self.msg_keys, "comm-rule keys": self.comm_keys, "top keys": self.top_keys,
                 "distributions": self.distributions, "collectives": self.collectives,
                 "algorithm tables": self.algorithms, "'inf'": self.inf}
        empty = [what for what, got in found.items() if not got]
        if empty:
            sys.exit(f"read nothing for {', '.join(empty)} from {root}: the source changed, update this check")

    def integer(self, value):
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, str) and any(value.startswith(w) for w in self.inf))


def bound(value):
    return float("inf") if isinstance(value, str) else value


def check_keys(grammar, faults, at, obj, known, integers, hint=""):
    """A fault for each key of obj the reader does not read, and each integer field that is not one."""
    for key, value in obj.items():
        if key not in known:
            faults.append(f"{at}.{key}: the reader ignores this key{hint}")
        elif key in integers and not grammar.integer(value):
            faults.append(f"{at}.{key} = {value!r}: not an integer or 'inf'")


def check(grammar, path):
    faults = []
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for key in doc:
        if key not in grammar.top_keys | grammar.schema_required:
            faults.append(f"top-level key '{key}': neither read by the reader nor required by the schema")
    for key in sorted(grammar.schema_required - set(doc)):
        faults.append(f"top-level key '{key}' missing: the schema requires it")
    for coll, blocks in doc.get("collectives", {}).items():
        if coll not in grammar.collectives:
            faults.append(f"collective '{coll}': not a name mca_coll_base_name_to_colltype knows")
            continue
        if coll not in grammar.algorithms:
            faults.append(f"collective '{coll}': coll/tuned has no algorithm table for it")
            continue
        for b, block in enumerate(blocks):
            at = f"collectives.{coll}[{b}]"
            check_keys(grammar, faults, at, block, grammar.comm_keys, grammar.comm_int_keys)
            if block.get("comm_rank_distribution", "any") not in grammar.distributions:
                faults.append(f"{at}.comm_rank_distribution = {block['comm_rank_distribution']!r}: 6.0 knows "
                              f"{sorted(grammar.distributions)} (and reads anything else as 'any')")
            if bound(block.get("comm_size_min", 0)) > bound(block.get("comm_size_max", "inf")):
                faults.append(f"{at}: comm_size_min above comm_size_max")
            last_max = -1
            for r, rule in enumerate(block.get("rules", [])):
                rat = f"{at}.rules[{r}]"
                check_keys(grammar, faults, rat, rule, grammar.msg_keys, grammar.msg_int_keys,
                           f" (it reads {sorted(grammar.msg_keys)})")
                alg = rule.get("alg")
                if alg is None:
                    faults.append(f"{rat}: no 'alg' (the reader requires it)")
                elif isinstance(alg, str) and (alg not in grammar.algorithms[coll] or alg == "ignore"):
                    faults.append(f"{rat}.alg = '{alg}': not one of {coll}'s algorithms "
                                  f"{sorted(grammar.algorithms[coll] - {'ignore'})}: 6.0 drops the rule")
                lo, hi = bound(rule.get("msg_size_min", 0)), bound(rule.get("msg_size_max", "inf"))
                if lo > hi or lo <= last_max:
                    faults.append(f"{rat}: [{lo}, {hi}] is not above the rule before it (ends {last_max})")
                last_max = hi
    return faults


def main(argv):
    pico, profiles = None, []
    if argv[:1] == ["--source-from"]:
        var, argv = argv[1], argv[2:]
        root = os.environ.get(var)
        if not root:
            print(f"skipped: {var} is not set (an Open MPI v6.0.x source tree: docs/openmpi5.md#open-mpi-60-json-rules)")
            return 77
    else:
        root, argv = argv[0], argv[1:]
    if argv[:1] == ["--pico"]:
        pico, argv = argv[1], argv[2:]
        while argv and argv[0].endswith(".profile.json"):
            profiles.append(argv.pop(0))
    grammar = Grammar(root)
    files = list(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for k, profile in enumerate(profiles):
            out = os.path.join(tmp, f"{k}.json")
            subprocess.run([pico, "export", profile, "--format", "ompi-json", "-o", out], check=True,
                           capture_output=True)
            files.append(out)
        faults = [(f, fault) for f in files for fault in check(grammar, f)]
    for f, fault in faults:
        print(f"{f}: {fault}")
    print(f"checked {len(files)} files against {root}: {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
