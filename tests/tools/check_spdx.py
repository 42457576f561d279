#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every source file pico's repository tracks (C, C++, CUDA, Python, shell, CMake, JavaScript) says its licence
in an SPDX-License-Identifier line among its first three lines (LICENSE; NOTICE lists third-party material).
Usage: check_spdx.py SOURCE_DIR"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: BSD-3-Clause"
EXTENSIONS = (".cpp", ".hpp", ".c", ".h", ".cu", ".cuh", ".cpp.in", ".js", ".py", ".sh", ".cmake")


def sources(root):
    git = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if git.returncode == 0:
        files = git.stdout.split()
    else:  # a source tree without its git history: every file under it
        files = [os.path.relpath(os.path.join(d, n), root) for d, _, names in os.walk(root)
                 if "/.git" not in d and "/build" not in d for n in names]
    for f in files:
        if f.startswith(("third_party/", "tests/data/")):
            continue
        if f.endswith(EXTENSIONS) or os.path.basename(f) == "CMakeLists.txt" or f == ".ci/run":
            yield f


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    missing, count = [], 0
    for f in sources(root):
        count += 1
        with open(os.path.join(root, f), errors="replace") as fh:
            head = [fh.readline() for _ in range(3)]
        if not any(TAG in line for line in head):
            missing.append(f)
    for name in ("LICENSE", "NOTICE"):
        if not os.path.exists(os.path.join(root, name)):
            missing.append(name)
    if missing:
        print(f"{len(missing)} file(s) without '{TAG}' in their first three lines (or missing):", *missing[:30], sep="\n  ")
        sys.exit(1)
    print(f"{count} source files carry {TAG}; LICENSE and NOTICE present")


if __name__ == "__main__":
    main()
