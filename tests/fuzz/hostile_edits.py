# SPDX-License-Identifier: BSD-3-Clause
"""Edits of tests/fuzz/mutate_inputs.py that make an input certainly bad
(issue 66): pico must refuse what they make (exit 2 in the error format),
so an exit 0 on one is a finding. Random mutations may or may not keep an
input valid; these are known not to.

- results directories, for `run --resume` and `run --resume --dry-run`: a
  loader variable (LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH) in a launch group's
  env of plan.json, in platform.yaml's env or launcher args (`-x
  LD_PRELOAD=...`); a directory or file
  writable by others (permissions, applied by the caller).
- catalogues (PICO_CATALOG_DIR): an environment name a shell or GNU env would
  read as code or an option (`X; touch PWNED; Y`, `-S x`), a component's
  data file outside the catalogue's directory (`../../...`, an absolute
  path), a FIFO, directory or link to /dev/zero in a catalogue file's place.
- MPICH's ch4 trees beside a catalogue (configs/catalog/mpich/): cut short,
  an array or a scalar for the object, nested 100,000 deep; where a strict
  JSON reader refuses the result, or it is not an object, MPICH aborts at
  MPI_Init on it, so pico must refuse it when it reads the catalogue (the
  caller judges: mutate_inputs.tree_expectation).
- reports given to tune: a measured case whose median is null, negative or text.
"""
import json
import random
import re

LOADER_NAMES = ["LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH"]
EVIL = "/tmp/pico-fuzz-evil.so"
# Names no environment of pico's may hold: code in a shell, an option of GNU env in a job script.
BAD_ENV_NAMES = ["X; touch PWNED; Y", "-S touch PWNED", "A B", "$(id)", "X=Y", "", "1ABC", "a\nb"]


def results_hostile(name: str, text: str, rng: random.Random):
    """The file NAME of a results directory with a loader variable smuggled in, or None where NAME
    carries no environment or launcher line."""
    var = rng.choice(LOADER_NAMES)
    if name == "plan.json":
        doc = json.loads(text)
        group = rng.choice(doc["launch_groups"])
        group.setdefault("env", {})[var] = EVIL
        return json.dumps(doc, indent=1)
    if name == "platform.yaml":
        if rng.random() < 0.5:
            return text.replace("env: {}", f"env: {{{var}: {EVIL}}}")
        return text.replace("args: []", rng.choice([f"args: [-x, {var}={EVIL}]", f"args: ['-x {var}={EVIL}']",
                                                    f"args: [--mca, plm_rsh_agent, 'env {var}={EVIL} ssh']"]))
    return None


def catalog_hostile(text: str, rng: random.Random):
    """A catalogue's YAML with one certainly bad edit (BAD_ENV_NAMES in an env map, or a component
    file outside the catalogue's directory), or None where the text has no place for it."""
    name = json.dumps(rng.choice(BAD_ENV_NAMES))  # a JSON string is a YAML double-quoted scalar
    spots = [m for m in re.finditer(r"^(\s*)launch_env:\n", text, re.M)]
    files = [m for m in re.finditer(r"file: [^,}\n]+", text)]
    if files and rng.random() < 0.4:
        m = rng.choice(files)
        target = rng.choice(["../../../etc/passwd", "/etc/passwd", "mpich/../../platforms/local.yaml",
                             "mpich/no-such-file.json"])
        return text[:m.start()] + f"file: {target}" + text[m.end():]
    if spots:
        m = rng.choice(spots)
        indent = m.group(1) + "  "
        return text[:m.end()] + f"{indent}{name}: \"1\"\n" + text[m.end():]
    envs = [m for m in re.finditer(r"env: \{", text)]
    if envs:
        m = rng.choice(envs)
        return text[:m.end()] + f"{name}: \"1\", " + text[m.end():]
    return None


def tree_hostile(text: str, rng: random.Random) -> str:
    """A ch4 tree MPICH cannot read: cut short, wrapped in an array, a scalar, or nested 100,000 deep."""
    roll = rng.random()
    if roll < 0.4:
        return text[:rng.randrange(1, max(2, len(text) - 1))]
    if roll < 0.6:
        return "[" + text + "]"
    if roll < 0.75:
        return rng.choice(["1", "null", '"collective=bcast"', "true", ""])
    depth = 100_000
    return text.replace("{}", "[" * depth + "]" * depth, 1)


def report_bad_median(text: str, rng: random.Random):
    """A report with one measured case's median null, negative or text; None where no case was measured."""
    doc = json.loads(text)
    measured = [c for c in doc.get("cases", []) if isinstance(c.get("timing"), dict) and "median_s" in c["timing"]]
    if not measured:
        return None
    rng.choice(measured)["timing"]["median_s"] = rng.choice([None, -1.0, -1e-9, "fast", [], {}])
    return json.dumps(doc, indent=1)
