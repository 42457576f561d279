#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Lists the differences between two report.json files apart from timings, ids,
timestamps, launcher environment and paths: what a refactoring must leave equal.

Usage: report_diff.py BEFORE/report.json AFTER/report.json   (exit 1 when they differ)
"""
import json
import re
import sys

# Keys whose values change from run to run.
VOLATILE = {"timing", "algbw_GBps", "busbw_GBps", "iterations", "elapsed_s", "stop_reason", "samples_s", "time_s",
            "counters", "started_utc", "finished_utc", "resumed_utc", "wall_s", "id", "dir", "git_hash", "pid", "env",
            "front_end_env", "launch_commands", "mean_wait_s"}


# What the library was seen to run (selection.actual.functions): "name x CALLS", where
# CALLS counts the case's warm-up and timed calls, which the timing decides.
CALL_COUNT = re.compile(r" x \d+$")


def scrub(x, key=""):
    if isinstance(x, dict):
        return {k: ("<volatile>" if k in VOLATILE else scrub(v, k)) for k, v in x.items()}
    if key == "functions" and isinstance(x, list):
        return [CALL_COUNT.sub(" x <calls>", f) if isinstance(f, str) else scrub(f) for f in x]
    if isinstance(x, list):
        return [scrub(v) for v in x]
    if isinstance(x, str) and ("/tmp/" in x or "/work/" in x or "/home/" in x):
        return "<path>"
    return x


def differences(a, b, path=""):
    if type(a) != type(b):
        yield f"{path}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{path}/{k}: only in {'after' if k in b else 'before'}"
            else:
                yield from differences(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}[{i}]")
    elif a != b:
        yield f"{path}: {a!r} != {b!r}"


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    before, after = (scrub(json.load(open(f, encoding="utf-8"))) for f in sys.argv[1:3])
    found = list(differences(before, after))
    for d in found:
        print(d)
    print(f"{len(found)} difference(s) apart from timings, ids, timestamps, environment and paths")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
