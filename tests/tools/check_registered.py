#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The hand-kept lists of tests/CMakeLists.txt against the tests they name: every test_* function of an
e2e script is registered as a CTest, and every registered name has its function (`SCRIPT NAME` runs
test_NAME, and an unknown name fails only when that CTest runs, a test never registered never runs).

usage: check_registered.py SCRIPT=NAME,NAME,... ...   (PICO, PICO_SOURCE_DIR as for e2e.py)

SCRIPT is a module of tests/e2e: `e2e` for the journeys e2e.py runs (its JOURNEYS), any other for its own
test_* functions, as its main gives them to e2e.run_named.
"""
import importlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e"))
import e2e  # noqa: E402


def tests_of(script):
    namespace = e2e.journey_tests() if script == "e2e" else vars(importlib.import_module(script))
    return set(e2e.named_tests(namespace))


def main():
    problems, total = [], 0
    for arg in sys.argv[1:]:
        script, _, names = arg.partition("=")
        registered = {n for n in names.split(",") if n}
        written = tests_of(script)
        total += len(written)
        tests = f"tests/e2e/{script}.py" if script != "e2e" else "the journeys of tests/e2e/e2e.py"
        problems += [f"{tests}: test_{n} is registered in no CTest (tests/CMakeLists.txt)"
                     for n in sorted(written - registered)]
        problems += [f"tests/CMakeLists.txt: '{n}' is registered for {script}.py, which has no test_{n}"
                     for n in sorted(registered - written)]
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{total} tests of {len(sys.argv) - 1} scripts, each registered by its name")
    return 1 if problems or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
