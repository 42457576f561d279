#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares pico's Open MPI catalogue with the library's own MPI_T enumerations.

Every algorithm the catalogue offers for a version through `MPI_T VAR=VALUE`
must be an item of VAR's enumeration in that library, under the same name, and
every item of those enumerations (but 0, "ignore": tuned's own rules) must be
in the catalogue (and on 5.0, where han's algorithms are the enumerations
coll_han_use_<coll>_algorithm, the catalogue's han rows of each collective
are exactly their items, under HAN_ITEMS's names): a missing one is an algorithm pico cannot sweep, a wrong one
forces another algorithm than it reports. The catalogue's rows come from
`pico list algorithms --mpi-version V --format markdown`, the library's from
`mpirun -np 1 WORKER --mpi-t-enums coll_` (src/worker/main.cpp).

usage: check_catalog_mpi_t.py PICO WORKER MPIRUN    (exit 1 on a mismatch, listing each)
       check_catalog_mpi_t.py PICO WORKER --prefix-from VAR
           (MPIRUN is $VAR/bin/mpirun; exit 77, a skip, saying why, where VAR or WORKER is absent)
"""
import json
import os
import re
import subprocess
import sys


def library_enums(worker, mpirun):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    out = subprocess.run([mpirun, "-np", "1", *root, worker, "--mpi-t-enums", "coll_"], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0:
        sys.exit(f"{worker} --mpi-t-enums failed ({out.returncode}): {out.stderr[-2000:]}")
    return json.loads(out.stdout)


def library_version(worker):
    """The version of the Open MPI the worker was linked against, as it says (`MPI: Open MPI v5.0.7`)."""
    out = subprocess.run([worker, "--version"], capture_output=True, text=True, timeout=60).stdout
    found = re.search(r"^MPI: Open MPI v(\d+(?:\.\d+)*)", out, re.M)
    if not found:
        sys.exit(f"{worker} --version names no Open MPI version: {out[:300]}")
    return found.group(1)


def catalogue_rows(pico, version):
    """The cells of each row of `pico list algorithms --mpi-version V --format markdown`."""
    out = subprocess.run([pico, "list", "algorithms", "--library", "openmpi", "--mpi-version", version, "--format",
                          "markdown"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"pico list algorithms failed: {out.stderr}")
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in out.stdout.splitlines()]
    return [cells for cells in rows if len(cells) >= 4]


def catalogue_choices(rows):
    """{variable: {value: algorithm}} of the rows selected through MPI_T."""
    choices = {}
    for cells in rows:
        m = re.fullmatch(r"`MPI_T (\w+)=(\d+)`", cells[3])
        if m:
            choices.setdefault(m.group(1), {})[m.group(2)] = cells[2]
    return choices


# han's algorithms (5.0: the enumeration coll_han_use_<coll>_algorithm, "default" its own choice) under the
# catalogue's names for them; 4.1.4 has no such variables (use_simple_<coll> booleans only).
HAN_ITEMS = {"intra": "han", "simple": "han_simple", "reproducible": "han_reproducible"}


def catalogue_han_rows(rows):
    """{collective: {algorithm}} of the rows that run coll/han."""
    han = {}
    for cells in rows:
        if cells[1] == "blocking" and cells[3].startswith("`launch coll_han_priority="):
            han.setdefault(cells[0], set()).add(cells[2])
    return han


def han_mismatches(han_rows, enums):
    found = []
    for variable, items in sorted(enums.items()):
        m = re.fullmatch(r"coll_han_use_(\w+)_algorithm", variable)
        if not m:
            continue
        coll = m.group(1)
        library = {HAN_ITEMS.get(item, f"han {item}") for value, item in items.items() if value != "0"}
        catalogue = han_rows.get(coll, set())
        for name in sorted(library - catalogue):
            found.append(f"{variable}: the library has {name}, the catalogue not for this version")
        for name in sorted(catalogue - library):
            found.append(f"{coll} {name}: the catalogue offers it, {variable} has no such item")
    return found


def mismatches(choices, enums):
    found = []
    for variable, by_value in sorted(choices.items()):
        items = enums.get(variable)
        if items is None:
            found.append(f"{variable}: the catalogue selects through it, the library has no such enumeration")
            continue
        for value, algorithm in sorted(by_value.items(), key=lambda kv: int(kv[0])):
            if value == "0":
                continue  # default: "ignore", tuned's (or libnbc's) own decision
            if value not in items:
                found.append(f"{variable}={value} ({algorithm}): not an item of the library's enumeration")
            elif items[value] != algorithm:
                found.append(f"{variable}={value}: the catalogue says {algorithm}, the library {items[value]}")
        for value, item in sorted(items.items(), key=lambda kv: int(kv[0])):
            if value != "0" and value not in by_value:
                found.append(f"{variable}={value} ({item}): the library has it, the catalogue not for this version")
    return found


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[2] == "--prefix-from":
        prefix = os.environ.get(args[3])
        if not prefix:
            print(f"skipped: {args[3]} is not set (the prefix of an Open MPI built by scripts/build-openmpi5.sh)")
            sys.exit(77)
        if not os.access(args[1], os.X_OK):
            print(f"skipped: no {args[1]} (configure with -DPICO_EXTRA_MPI=openmpi5={prefix})")
            sys.exit(77)
        args = [args[0], args[1], os.path.join(prefix, "bin", "mpirun")]
    if len(args) != 3:
        sys.exit(__doc__)
    pico, worker, mpirun = args
    version = library_version(worker)
    enums = library_enums(worker, mpirun)
    rows = catalogue_rows(pico, version)
    choices = catalogue_choices(rows)
    found = mismatches(choices, enums)
    han_rows = catalogue_han_rows(rows)
    found += han_mismatches(han_rows, enums)
    checked = sum(len(v) for v in choices.values())
    han_variables = sum(1 for v in enums if re.fullmatch(r"coll_han_use_\w+_algorithm", v))
    if han_variables:
        print(f"Open MPI {version}: {sum(len(v) for v in han_rows.values())} catalogue han rows against "
              f"{han_variables} coll_han_use_<coll>_algorithm enumerations")
    print(f"Open MPI {version}: {checked} catalogue choices over {len(choices)} variables against the library's "
          f"MPI_T enumerations: {len(found)} mismatch(es)")
    for line in found:
        print("  " + line)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
