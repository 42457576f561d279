#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails when a source file includes a header from a layer it may not use.

The layers and what each may include are the table below, in the order of
docs/architecture.md; CMakeLists.txt links one library per layer with the same
dependencies, so a call that runs back up a layer fails to link as well.
Usage: check_layers.py [SOURCE_ROOT]   (default: the repository of this script)
"""
import os
import re
import sys

# layer: (folders, lower layers it may include). Lowest first.
LAYERS = {
    "core": (["src/core"], []),
    "collectives": (["collectives"], ["core"]),
    "config": (["src/config"], ["core", "collectives"]),
    "plan": (["src/plan"], ["core", "collectives", "config"]),
    "instrumentation": (["instrumentation"], ["core"]),
    "harness": (["src/harness"], ["core"]),
    "backends": (["backends"], ["core", "collectives", "instrumentation", "harness"]),
    "worker": (["src/worker"], ["core", "collectives", "config", "plan", "instrumentation", "harness", "backends"]),
    "reports": (["reports"], ["core", "collectives"]),
    "analysis": (["src/analysis"], ["core"]),
    "tuning": (["src/tuning"], ["core", "collectives", "config", "analysis"]),
    "export": (["src/export"], ["core", "collectives", "config", "analysis", "tuning"]),
    "launch": (["src/launch"], ["core", "collectives", "config", "plan", "instrumentation", "reports", "analysis",
                                "tuning", "export"]),
    "simulation": (["src/simulation"], ["core", "collectives", "config", "plan", "instrumentation", "reports",
                                        "analysis", "tuning", "export", "launch"]),
    "cli": (["src/cli"], ["core", "collectives", "config", "plan", "instrumentation", "reports", "analysis",
                          "tuning", "export", "launch", "simulation"]),
}
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
    found = []
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
                            m = INCLUDE.match(line)
                            if not m:
                                continue
                            target = resolve(m.group(1), path, root)
                            target_layer = layer_of(target) if target else None
                            if target_layer and target_layer not in allowed:
                                found.append(f"{path}:{number}: layer '{owner}' includes \"{m.group(1)}\" "
                                             f"from layer '{target_layer}' (allowed: {', '.join(sorted(allowed))})")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = violations(root)
    for v in found:
        print(v)
    files = sum(1 for folders, _ in LAYERS.values() for folder in folders
                for _, _, fs in os.walk(os.path.join(root, folder)) for f in fs if f.endswith(SOURCE_SUFFIXES))
    print(f"layers: {files} files checked, {len(found)} include(s) against the layer order")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
