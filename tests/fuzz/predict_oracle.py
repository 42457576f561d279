# SPDX-License-Identifier: BSD-3-Clause
"""Kind `predict` of tests/fuzz/mutate_inputs.py: `pico predict --profile` must
name what the exported files make the library run (issue 66, finding 7).

Each input is a valid profile generated from the catalogues, of one of three
families (FAMILIES), one to three rules of one collective with one to four
ranges each, exported, then asked of predict at communicator sizes below the
smallest rule, at a rule's size, between two rules, just past a rule's reach
(twice it, 64 more) and far above, at message sizes on each side of the range
bounds:

- tuned: Open MPI 4.1/5.0, coll/tuned's algorithms or `default`, rules on 2
  to 70 ranks, exported as ompi-rules. The file's choice is read the way Open
  MPI reads it (the last comm-size block <= the communicator, else the first;
  in it the last row <= the message size times the collective's factor:
  export_oracle.ompi_rules_lookup).
- han: Open MPI 4.1/5.0 with coll/han's variants (han, han_simple,
  han_reproducible: one variant and one set of its parameters per collective,
  as the catalogue allows) beside tuned's algorithms, rules on placements of
  at least 2 nodes x 2 ranks, exported as ompi-rules and ompi-han-rules. han's
  file is read as coll/han reads it (the last configuration <= the
  communicator, the last message rule <= pico's bytes, unscaled): a rule
  naming han runs that variant (the row's comment); tuned or libnbc hands the
  call to tuned, whose ompi-rules file then decides (a han row there is
  tuned's own decision). Open MPI loads these files only on several nodes
  (han serves no single-node communicator), so the check is against the
  parsed files, never a launch.
- ch4: MPICH 4.0.2 with the ch4 compositions (composition_alpha/beta/gamma)
  beside MPIR's algorithms, rules on 1 to 4 nodes, exported as mpich-ch4-json
  and mpich-json against the default trees in tests/data/export. Both trees
  are walked as MPICH's csel walks them (the first key that holds, at the
  communicator size, avg_msg_size = the bytes, a commutative built-in op, the
  user's communicator as the hierarchy's parent): a composition must reach
  that composition, an MPIR algorithm the collective's flat composition
  (catalogue `flat: true`) and then that algorithm in the MPIR tree,
  `default` the leaf the library's own tree reaches there. MPICH 4.0.2 reads
  the ch4 file's name back as "" through MPI_T and no interposer sees the
  composition, so this too is checked against the parsed files.

In every family `default` ranges sometimes carry `default_ran` (what the
library's default ran at measured sizes, catalogue names): at the rule's own
communicator size predict must then say "default (ran X)" with X the
default_ran entry whose share of the range holds the bytes (range_boundary:
the geometric midpoint between two measured sizes), elsewhere plain
"default".

real_launch_check() runs a sample of tuned profiles in real Open MPI
(`pico run --profile`, algorithms [default], the interposer saying which
algorithm ran) on 2 to 5 ranks and compares that with the file's choice and
predict's (where the file leaves tuned's own decision, with a run without the
profile; a `default` range there carries the default_ran that run saw).
"""
import copy
import json
import math
import random
import re
from pathlib import Path

import yaml

from export_oracle import ompi_rules_lookup

import tuning_formats as tf  # noqa: E402 (export_oracle put tests/tools on the path)

ROOT = Path(__file__).resolve().parents[2]
EXPORT_DATA = ROOT / "tests/data/export"
TEMPLATE = EXPORT_DATA / "openmpi-4.1.4.profile.json"
MPICH_TEMPLATE = EXPORT_DATA / "mpich-4.0.2-ch4.profile.json"
MPICH_DEFAULTS = EXPORT_DATA / "mpich-4.0.2-defaults.json"
MPICH_CH4_DEFAULTS = EXPORT_DATA / "mpich-4.0.2-ch4-defaults.json"
VERSIONS = ("4.1.4", "5.0.7")
MPICH_VERSION = "4.0.2"
FAMILIES = ("tuned", "han", "ch4")
MAX_KEY = (1 << 63) - 1
# coll/tuned's message size per pico byte (collectives/*.cpp ompi_size): block, comm_total (x np), none (0).
FACTOR = {"allreduce": "block", "bcast": "block", "reduce": "block", "allgather": "total", "gather": "total",
          "scatter": "total", "alltoall": "total", "reduce_scatter": "total", "reduce_scatterv": "block",
          "barrier": "none", "alltoallv": "none"}
# The collectives 4.1's han serves (mca_coll_han_<coll>_intra_dynamic), as ompi-han-rules writes them.
HAN_COLLECTIVES = ("allgather", "allreduce", "barrier", "bcast", "gather", "reduce", "scatter")
# The collectives MPICH 4.0.2's ch4 device composes (and predict has reference algorithms for).
CH4_COLLECTIVES = ("allreduce", "barrier", "bcast", "reduce")
BOUNDS = [1, 2, 3, 7, 8, 64, 999, 1000, 1024, 4096, 65536, 1 << 20, 1 << 30]


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


def placement_holds(require, nodes, ppn):
    """A catalogue constraint on a rule's placement, as the exports judge it (export_support.cpp
    require_placement): over np, np_pow2, nodes, ppn and ppn_balanced; one that names anything else
    depends on the call and is not judged (True)."""
    np = nodes * ppn
    env = {"np": np, "np_pow2": 1 << (np.bit_length() - 1), "nodes": nodes, "ppn": ppn, "ppn_balanced": 1}
    expr = require.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}, env))  # noqa: S307 (the repository's own catalogue)
    except NameError:
        return True


class Catalogue:
    """One library's catalogue: each collective's algorithms on a version, with what they need."""

    def __init__(self, library):
        doc = yaml.safe_load((ROOT / f"configs/catalog/{library}.yaml").read_text())
        self.components = {name: c.get("constraints") or [] for name, c in
                           (doc.get("selection", {}).get("components") or {}).items()}
        self.grid = doc.get("parameter_grid") or {}
        self.collectives = doc["collectives"]

    def entries(self, coll, version):
        entries = self.collectives.get(coll, {}).get("algorithms", [])
        return [a for a in entries if _version_ok(a.get("versions"), version)]

    def names(self, coll, version):
        return [a["name"] for a in self.entries(coll, version)]

    def fits(self, entry, nodes, ppn):
        """Whether the catalogue lets entry run on nodes x ppn (its component's constraints and its own)."""
        needs = self.components.get(entry.get("component"), []) + (entry.get("constraints") or [])
        return all(placement_holds(k["require"], nodes, ppn) for k in needs)


OMPI = Catalogue("openmpi")
MPICH = Catalogue("mpich")


def tuned_algorithms():
    """{version: {collective: [coll/tuned algorithm names]}}: the catalogue's, components (han, adapt) left out."""
    out = {}
    for version in VERSIONS:
        out[version] = {}
        for coll in OMPI.collectives:
            if coll not in FACTOR:
                continue
            names = [a["name"] for a in OMPI.entries(coll, version) if not a.get("component")]
            if names:
                out[version][coll] = names
    return out


ALGORITHMS = tuned_algorithms()


def grid_value(value):
    """A parameter_grid value as a profile holds it: bytes for "8KiB"."""
    if isinstance(value, str):
        m = re.fullmatch(r"([0-9]+)(B|KiB|MiB)", value)
        return int(m.group(1)) << {"B": 0, "KiB": 10, "MiB": 20}[m.group(2)]
    return value


def with_default_ran(rng, rg, names):
    """Sometimes a `default` range records what the library's default ran at one to three sizes in it."""
    if rg["algorithm"] != "default" or not names or rng.random() < 0.5:
        return
    hi = rg["max_bytes"] if rg["max_bytes"] is not None else max(rg["min_bytes"] * 4, 1 << 21)
    points = sorted({rng.randint(rg["min_bytes"], hi) for _ in range(rng.randrange(1, 4))})
    rg["default_ran"] = [{"bytes": b, "algorithm": rng.choice(names)} for b in points]


def make_ranges(rng, base_range, coll, choose):
    """One to four ranges from 0 up (one for a collective keyed on no size), each algorithm choose(rng)."""
    count = 1 if FACTOR[coll] == "none" else rng.randrange(1, 5)
    starts = [0] + sorted(rng.sample(BOUNDS, count - 1))
    ranges = []
    for k, start in enumerate(starts):
        algorithm, params = choose(rng)
        rg = copy.deepcopy(base_range)
        rg.update({"min_bytes": start, "max_bytes": starts[k + 1] - 1 if k + 1 < len(starts) else None,
                   "algorithm": algorithm, "params": params,
                   "speedup": None if algorithm == "default" else {"estimate": 1.3, "low": 1.1, "high": 1.5}})
        ranges.append(rg)
    return ranges


def placements(rng, family, count):
    """[(comm size, nodes, ppn)] ascending, distinct sizes: han on >= 2 x >= 2, ch4 on 1 to 4 nodes, tuned on one."""
    if family == "tuned":
        return [(n, 1, n) for n in sorted(rng.sample(range(2, 71), count))]
    shapes = {}
    for nodes in range(1 if family == "ch4" else 2, 5):
        for ppn in range(1 if family == "ch4" else 2, 18):
            if 2 <= nodes * ppn <= 70:
                shapes.setdefault(nodes * ppn, []).append((nodes, ppn))
    sizes = sorted(rng.sample(sorted(shapes), count))
    return [(n, *rng.choice(shapes[n])) for n in sizes]


def generate(rng: random.Random):
    """A valid profile of one collective, as a dict: text, family, coll, sizes (its rules' comm sizes)."""
    family = rng.choice(FAMILIES)
    if family == "ch4":
        profile = json.loads(MPICH_TEMPLATE.read_text())
        version = MPICH_VERSION
        profile["library"]["version"] = version
        coll = rng.choice(CH4_COLLECTIVES)
        catalogue = MPICH
    else:
        profile = json.loads(TEMPLATE.read_text())
        version = rng.choice(VERSIONS)
        profile["library"]["version"] = version
        colls = sorted(ALGORITHMS[version]) if family == "tuned" else \
            [c for c in HAN_COLLECTIVES if any(a.get("component") == "han" for a in OMPI.entries(c, version))]
        coll = rng.choice(colls)
        catalogue = OMPI
    base = copy.deepcopy(profile["rules"][0])
    base_range = copy.deepcopy(base["ranges"][0])
    base_range.pop("default_ran", None)
    # han: one variant and one set of its parameters per collective (Open MPI holds one value per collective).
    han_entry, han_params = None, {}
    if family == "han":
        han_entry = rng.choice([a for a in OMPI.entries(coll, version) if a.get("component") == "han"])
        han_params = {p: grid_value(rng.choice(OMPI.grid[p])) for p in han_entry.get("parameters") or []
                      if rng.random() < 0.7}
    rules = []
    for n, nodes, ppn in placements(rng, family, rng.randrange(1, 4)):
        rule = copy.deepcopy(base)
        rule.update({"collective": coll, "comm_size": n, "nodes": nodes, "ppn": ppn})
        if family == "tuned":
            menu = [(a, {}) for a in ALGORITHMS[version][coll]]
        elif family == "han":
            menu = [(a, {}) for a in ALGORITHMS[version].get(coll, [])] + [(han_entry["name"], han_params)] * 2
        else:
            # barrier: compositions only (mpich-json refuses an MPIR barrier: its tree has no size to key on)
            menu = [(a["name"], {}) for a in MPICH.entries(coll, version) if MPICH.fits(a, nodes, ppn)
                    and (coll != "barrier" or a.get("component"))]
        menu.append(("default", {}))
        rule["ranges"] = make_ranges(rng, base_range, coll, lambda r: r.choice(menu))
        for rg in rule["ranges"]:
            with_default_ran(rng, rg, catalogue.names(coll, version))
        rules.append(rule)
    profile["rules"] = rules
    return {"text": json.dumps(profile), "family": family, "coll": coll, "sizes": [r["comm_size"] for r in rules]}


def exports(family):
    """[(format, extra flags)] a family's profile is exported in."""
    if family == "tuned":
        return [("ompi-rules", [])]
    if family == "han":
        return [("ompi-rules", []), ("ompi-han-rules", [])]
    return [("mpich-ch4-json", ["--mpich-ch4-defaults", str(MPICH_CH4_DEFAULTS)]),
            ("mpich-json", ["--mpich-defaults", str(MPICH_DEFAULTS)])]


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
            for d in rg.get("default_ran", []):
                byte_points.update({d["bytes"], d["bytes"] + 1, max(0, d["bytes"] - 1)})
    nps = sorted(nps)
    # Half the points on a rule's own size: only there do exact-size exports (mpich) tune, and default_ran apply.
    return [(rng.choice(sizes) if rng.random() < 0.5 else rng.choice(nps), rng.choice(sorted(byte_points)))
            for _ in range(count)]


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


def ompi_han_lookup(text):
    """{collective name: [(configuration size, [(from, component, algorithm named in the comment or None)])]}."""
    tf.parse_ompi_han_rules(text)  # coll/han's reader's invariants
    out, coll, conf = {}, None, None
    for line in text.splitlines():
        body, _, comment = line.partition("#")
        tokens = body.split()
        m = re.match(r"\s*collective (\S+)", comment)
        if len(tokens) == 1 and m:
            coll = m.group(1)
            out[coll] = []
        elif len(tokens) == 2 and coll is not None and tokens[1].isdigit():
            conf = (int(tokens[0]), [])
            out[coll].append(conf)
        elif len(tokens) == 2 and conf is not None:
            conf[1].append((int(tokens[0]), tokens[1], comment.strip() or None))
    return out


def han_choice(han, tuned_blocks, coll, np, nbytes):
    """What Open MPI runs with both files loaded: han's rule, or where it names tuned (libnbc: the next
    component, tuned) tuned's file's choice; a han row of tuned's file is tuned's own decision."""
    confs = han.get(coll)
    if not confs:
        return "default"
    rows = [c for c in confs if c[0] <= np][-1][1]
    _, component, named = [r for r in rows if r[0] <= nbytes][-1]
    if component == "han":
        return named
    want = file_choice(tuned_blocks, coll, np, nbytes)
    han_names = {a["name"] for a in OMPI.entries(coll, "4.1.4") if a.get("component")}
    return "default" if want in han_names else want


def csel_leaf(tree, coll, np, nbytes, nodes):
    """The leaf ("composition=..." or "algorithm=...") MPICH's csel reaches in tree for a commutative
    built-in op of nbytes per rank (int8: count = bytes) on np ranks over `nodes` nodes, from the user's
    communicator; ValueError on a key this walk does not know or a node no key of which holds."""
    pow2 = 1 << (np.bit_length() - 1)
    values = {"comm_size": np, "avg_msg_size": nbytes, "count": nbytes, "total_msg_size": nbytes * np}
    flags = {"comm_type": "intra", "is_commutative": "yes", "is_op_built_in": "yes", "comm_hierarchy": "parent"}

    def holds(key):
        m = re.fullmatch(r"([a-z_]+)(<=|<|=)(.+)", key)
        if not m:
            raise ValueError(f"key {key!r}")
        name, op, arg = m.groups()
        if arg == "any":
            return True
        if name in flags:
            return arg == flags[name]
        if name not in values:
            raise ValueError(f"key {key!r}")
        v = values[name]
        if arg == "pow2":
            return v < pow2 if op == "<" else v <= pow2 if op == "<=" else (np & (np - 1)) == 0
        if arg == "node_comm_size":
            return nodes == 1
        n = int(arg)
        return {"<": v < n, "<=": v <= n, "=": v == n}[op]

    node = tree[f"collective={coll}"]
    for _ in range(200):
        leaf = [k for k in node if k.startswith(("composition=", "algorithm="))]
        if leaf:
            return leaf[0]
        key = next((k for k in node if holds(k)), None)
        if key is None:
            raise ValueError(f"no key of {list(node)} holds")
        node = node[key]
    raise ValueError("deeper than 200")


def ch4_choice(exported, coll, np, nbytes, nodes, defaults_cache={}):  # noqa: B006 (a cache of two files)
    """(ch4 leaf, MPIR leaf, the library's own ch4 leaf, the library's own MPIR leaf) at this point."""
    if not defaults_cache:
        defaults_cache["ch4"] = json.loads(MPICH_CH4_DEFAULTS.read_text())
        defaults_cache["mpir"] = json.loads(MPICH_DEFAULTS.read_text())
    return (csel_leaf(exported["mpich-ch4-json"], coll, np, nbytes, nodes),
            csel_leaf(exported["mpich-json"], coll, np, nbytes, nodes),
            csel_leaf(defaults_cache["ch4"], coll, np, nbytes, nodes),
            csel_leaf(defaults_cache["mpir"], coll, np, nbytes, nodes))


def mpich_function(coll):
    return coll[0].upper() + coll[1:]


def predict_choice(stdout):
    """(word after "picks", X of "default (ran X)" or None), or (None, None) where there is no such line."""
    for line in stdout.splitlines():
        if line.startswith("profile ") and " picks " in line:
            rest = line.split(" picks ", 1)[1]
            m = re.match(r"default \(ran (\S+?)\)", rest)
            return rest.split()[0].rstrip(":"), (m.group(1) if m else None)
    return None, None


def predict_word(stdout):
    """The word after "picks" in predict's profile line, or None where there is none."""
    return predict_choice(stdout)[0]


def predict_command(pico, coll, np, nbytes, path):
    size = [] if coll == "barrier" else ["--size", f"{max(nbytes, 1)}B", "--dtype", "int8"]
    return [pico, "predict", coll, "--np", str(np), *size, "--profile", str(path)]


def range_boundary(lower, upper):
    """profile.cpp range_boundary: ceil(sqrt(lower * upper)) within (lower, upper]."""
    return min(max(math.ceil(math.sqrt(float(lower) * float(upper))), lower + 1), upper)


def expected_ran(profile, coll, np, nbytes):
    """What predict must add as "(ran X)": the default_ran of the default range holding nbytes in the
    rule of np's own size, or None (no such rule, a range not default, none recorded)."""
    for rule in profile["rules"]:
        if rule["collective"] != coll or rule["comm_size"] != np:
            continue
        for rg in rule["ranges"]:
            if rg["min_bytes"] <= nbytes and (rg["max_bytes"] is None or nbytes <= rg["max_bytes"]):
                ran = rg.get("default_ran") or []
                if rg["algorithm"] != "default" or not ran:
                    return None
                k = 0
                while k + 1 < len(ran) and nbytes >= range_boundary(ran[k]["bytes"], ran[k + 1]["bytes"]):
                    k += 1
                return ran[k]["algorithm"]
    return None


def disagreement(case, exported, np, nbytes, stdout):
    """None, or how predict's choice differs from what the exported files run at (np, nbytes).
    exported: {format: the export's text}."""
    coll, family = case["coll"], case["family"]
    profile = json.loads(case["text"])
    key_bytes = max(nbytes, 1) if coll != "barrier" else 0
    got, got_ran = predict_choice(stdout)
    where = f"{coll} np {np} at {nbytes} B"
    try:
        if family == "ch4":
            trees = {fmt: json.loads(text) for fmt, text in exported.items()}
            own = [r for r in profile["rules"] if r["comm_size"] == np]
            nodes = own[0]["nodes"] if own else 2
            ch4, mpir, ch4_own, mpir_own = ch4_choice(trees, coll, np, key_bytes, nodes)
            composition = f"composition=MPIDI_{mpich_function(coll)}_intra_"
            entry = next((a for a in MPICH.entries(coll, MPICH_VERSION) if a["name"] == got), None)
            if got == "default":
                ok = ch4 == ch4_own and mpir == mpir_own
                want = f"the library's own ({ch4_own}, {mpir_own})"
            elif entry is not None and entry.get("component"):
                ok = ch4 == composition + got and mpir == mpir_own
                want = f"{composition + got} and the library's own {mpir_own}"
            elif entry is not None:
                flat = next(a["name"] for a in MPICH.entries(coll, MPICH_VERSION) if a.get("flat"))
                function = f"algorithm=MPIR_{mpich_function(coll)}_intra_{entry.get('value', got)}"
                ok = ch4 == composition + flat and mpir == function
                want = f"{composition + flat} then {function}"
            else:
                ok, want = False, "a catalogue name"
            if not ok:
                return (f"{where}: the exported trees reach {ch4} (ch4) and {mpir} (MPIR); predict says {got!r}, "
                        f"which would be {want}")
        else:
            blocks = ompi_rules_lookup(exported["ompi-rules"])
            if family == "han":
                want = han_choice(ompi_han_lookup(exported["ompi-han-rules"]), blocks, coll, np, key_bytes)
            else:
                want = file_choice(blocks, coll, np, key_bytes)
            if want is not None and got != want:
                files = "files (ompi-han-rules, then ompi-rules) run" if family == "han" else "ompi-rules file runs"
                return f"{where}: the exported {files} {want!r}, predict says {got!r}"
    except (tf.FormatError, ValueError, KeyError, IndexError, StopIteration) as e:
        return f"{where}: the exports do not read as their library reads them: {type(e).__name__}: {e}"
    ran = expected_ran(profile, coll, np, key_bytes) if got == "default" else None
    if got == "default" and got_ran != ran:
        return (f"{where}: the profile's default_ran there is {ran!r}, predict says "
                f"{'default (ran ' + got_ran + ')' if got_ran else 'default'}")
    return None


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
            lo.update({"min_bytes": 0, "max_bytes": 999, "algorithm": rng.choice(names + ["default"])})
            hi.update({"min_bytes": 1000, "max_bytes": None, "algorithm": rng.choice(names + ["default"])})
            for rg, nbytes in ((lo, sweep_sizes[0]), (hi, sweep_sizes[1])):
                ran = own_ran.get((coll, n, nbytes))
                if rg["algorithm"] == "default":
                    rg["speedup"] = None
                    if ran and rng.random() < 0.7:  # what the default ran there, as pico tune records it
                        rg["default_ran"] = [{"bytes": nbytes, "algorithm": ran}]
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
            picks, picks_ran = predict_choice(said.stdout) if said is not None else (None, None)
            want_ran = expected_ran(profile, coll, np, nbytes) if want == "default" else None
            if case["status"] != "ok" or ran != expected or picks != want or picks_ran != want_ran or (
                    want_ran is not None and want_ran != ran):
                findings.append(f"real {k} ({path}): {coll} np {np} {nbytes} B: Open MPI ran {ran!r} "
                                f"(status {case['status']}), the file chooses {want!r} (so {expected!r} should run), "
                                f"predict says {picks!r} (ran {picks_ran!r}; the profile's default_ran {want_ran!r})")
    return launched, findings
