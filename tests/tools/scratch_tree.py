# SPDX-License-Identifier: BSD-3-Clause
"""What the tests of pico's checkers (test_check_layers.py,
test_check_library_names.py) share: files written into a scratch tree, the
checker run on it, and failures gathered and reported at the end."""
import os
import subprocess
import sys

failures = []


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def run_checker(script, root):
    return subprocess.run([sys.executable, script, root], capture_output=True, text=True)


def expect(ok, what):
    if not ok:
        failures.append(what)


def finish(label):
    """Prints each failure and their count; the exit status, 1 where there was one."""
    for f in failures:
        print("FAIL:", f)
    print(f"{label}: {len(failures)} failure(s)")
    return 1 if failures else 0
