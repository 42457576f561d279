#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails when docs/architecture.md's "Adding a collective / a backend touches:"
lists disagree with the tree.

A source file outside tests/ that names every enumerator of Collective (or of
BackendKind), a table or a switch over all of them, is a file that adding one
must touch: it must be in the list. A file the list names must exist. Prints
the count of files each list names, so that a change that spreads a
collective again shows in the test's output.
Usage: check_adding_lists.py [SOURCE_ROOT]   (default: the repository of this script)
"""
import os
import re
import sys

SOURCE_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".h")
SKIPPED = ("tests", "build", ".git", "node_modules", "shared")
# (heading in docs/architecture.md, enum, the header that declares it)
LISTS = [
    ("Adding a collective touches:", "Collective", "src/core/types.hpp"),
    ("Adding a backend touches:", "BackendKind", "src/core/backend_kind.hpp"),
]


def enumerators(root, enum, header):
    text = open(os.path.join(root, header), encoding="utf-8").read()
    m = re.search(r"enum class " + enum + r"\s*\{([^}]*)\}", text)
    if not m:
        sys.exit(f"{header}: no 'enum class {enum}'")
    body = re.sub(r"//[^\n]*", "", m.group(1))
    return [e.strip() for e in body.split(",") if e.strip()]


def listed_paths(root, heading):
    """The backquoted paths of the numbered list after `heading`."""
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    start = text.find(heading)
    if start < 0:
        sys.exit(f"docs/architecture.md: no '{heading}'")
    lines = text[start + len(heading):].splitlines()[1:]
    body = []
    for line in lines:  # the list ends at its first blank line
        if line.strip() == "":
            if body:
                break
            continue
        body.append(line)
    paths = set()
    for quoted in re.findall(r"`([^`]+)`", "\n".join(body)):
        for word in quoted.replace(",", " ").split():
            if "/" in word and not word.startswith("-"):
                paths.add(word.rstrip(":").split("#")[0])
    return paths


def naming_every(root, enum, names):
    """Source files outside tests/ that name every enumerator as ENUM::name."""
    found = []
    for directory, subdirs, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root)
        if rel_dir.split(os.sep)[0] in SKIPPED:
            subdirs[:] = []
            continue
        for f in sorted(files):
            if not f.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.normpath(os.path.join(rel_dir, f))
            text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
            if all(re.search(rf"\b{enum}::{n}\b", text) for n in names):
                found.append(path)
    return found


def check(root):
    problems = []
    for heading, enum, header in LISTS:
        names = enumerators(root, enum, header)
        listed = listed_paths(root, heading)
        for path in sorted(listed):
            if "<" in path or "*" in path:
                continue  # a pattern: collectives/<name>.cpp, configs/catalog/*.yaml
            if not os.path.exists(os.path.join(root, path)):
                problems.append(f"docs/architecture.md: '{heading}' names {path}, which does not exist")
        spread = naming_every(root, enum, names)
        for path in spread:
            if path not in listed:
                problems.append(f"{path}: names every {enum} (a table or switch over all of them) but "
                                f"docs/architecture.md's '{heading}' list does not name it: put the fact in "
                                f"the {enum}'s descriptor, or add the file to the list")
        print(f"{heading} {len(listed)} paths listed; {len(spread)} source files name every {enum}: "
              f"{', '.join(spread)}")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    problems = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
