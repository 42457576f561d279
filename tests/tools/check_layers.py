#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails when a source file includes a header from a layer it may not use, or
when a layer may use one it never includes (an allowance nothing uses hides
what a layer really stands on: each cell is what its layer uses).

The layers and what each may include are cmake/layers.txt, the one table:
CMakeLists.txt reads it too (pico_layer refuses a DEPENDS it does not list),
so a call that runs back up a layer fails to configure and link as well. The
"may use" column of docs/architecture.md's table must say the same: a table
that disagrees is reported like an include.
Usage: check_layers.py [SOURCE_ROOT]   (default: the repository of this script)
"""
import os
import re
import sys



def read_layers(root):
    """cmake/layers.txt, the one table: {layer: ([folders], [lower layers it may include])}, lowest first."""
    layers = {}
    with open(os.path.join(root, "cmake", "layers.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-z_]+):([^|]*)\|(.*)$", line.strip())
            if m:
                layers[m.group(1)] = (m.group(2).split(), m.group(3).split())
    if not layers:
        sys.exit("cmake/layers.txt: no layer lines")
    return layers


LAYERS = {}  # read_layers(root), set by main for the tree it checks
# core is the vocabulary only: the system headers of files, processes, signals
# and terminals belong in support (issue 69), where every layer finds them.
CORE_FORBIDDEN_HEADERS = ("fstream", "cstdio", "stdio.h", "filesystem", "unistd.h", "fcntl.h", "signal.h",
                          "csignal", "termios.h", "spawn.h", "dirent.h", "poll.h")
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
SOURCE_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer owning a repository-relative path, longest folder first."""
    best = None
    for layer, (folders, _) in LAYERS.items():
        for folder in folders:
            if path == folder or path.startswith(folder + "/"):
                if best is None or len(folder) > best[1]:
                    best = (layer, len(folder))
    return best[0] if best else None


def resolve(include, including_file, root):
    """The repository-relative path of an include, as the build's include path finds it."""
    for base in (os.path.dirname(including_file), "src", ""):
        candidate = os.path.normpath(os.path.join(base, include))
        if os.path.exists(os.path.join(root, candidate)):
            return candidate
    return None


def violations(root):
    """Includes up (or across) the layer order, and allowances nothing includes."""
    found = []
    used = {layer: set() for layer in LAYERS}  # layer -> the other layers its files include
    for layer, (folders, _) in LAYERS.items():
        for folder in folders:
            for directory, _, files in os.walk(os.path.join(root, folder)):
                for f in sorted(files):
                    if not f.endswith(SOURCE_SUFFIXES):
                        continue
                    path = os.path.relpath(os.path.join(directory, f), root)
                    owner = layer_of(path)
                    allowed = {owner, *LAYERS[owner][1]}
                    with open(os.path.join(root, path), encoding="utf-8") as text:
                        for number, line in enumerate(text, 1):
                            system = SYSTEM_INCLUDE.match(line)
                            if owner == "core" and system and (system.group(1) in CORE_FORBIDDEN_HEADERS
                                                               or system.group(1).startswith("sys/")):
                                found.append(f"{path}:{number}: core includes <{system.group(1)}>: file, process "
                                             "and terminal code belongs in src/support/")
                            m = INCLUDE.match(line)
                            if not m:
                                continue
                            target = resolve(m.group(1), path, root)
                            target_layer = layer_of(target) if target else None
                            if target_layer and target_layer != owner:
                                used[owner].add(target_layer)
                            if target_layer and target_layer not in allowed:
                                found.append(f"{path}:{number}: layer '{owner}' includes \"{m.group(1)}\" "
                                             f"from layer '{target_layer}' (allowed: {', '.join(sorted(allowed))})")
    for layer, (_, lower) in LAYERS.items():
        for unused in (lower_layer for lower_layer in lower if lower_layer not in used[layer]):
            found.append(f"cmake/layers.txt: layer '{layer}' may use '{unused}', but none of its files includes "
                         f"it: take '{unused}' out of its cell")
    return found


def docs_disagreements(root):
    """Rows of docs/architecture.md's layer table whose "may use" cell is not cmake/layers.txt's list."""
    found = []
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 4 or cells[0] not in LAYERS:
                continue
            said = set() if cells[3] in ("—", "-", "") else {w.strip() for w in cells[3].split(",")}
            listed = set(LAYERS[cells[0]][1])
            if said != listed:
                found.append(f"docs/architecture.md:{number}: layer '{cells[0]}' may use {', '.join(sorted(said)) or '—'}"
                             f" there, {', '.join(sorted(listed)) or '—'} in cmake/layers.txt")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    LAYERS.update(read_layers(root))  # the table of the tree checked, not of this script's checkout
    found = violations(root) + docs_disagreements(root)
    for v in found:
        print(v)
    files = sum(1 for folders, _ in LAYERS.values() for folder in folders
                for _, _, fs in os.walk(os.path.join(root, folder)) for f in fs if f.endswith(SOURCE_SUFFIXES))
    print(f"layers: {files} files checked, {len(found)} include(s) against the layer order or unused allowance(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
