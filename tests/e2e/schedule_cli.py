#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`pico schedule` end to end: output formats, -o, and bad input (exit 2 with a clear message)."""
import json
import os
import subprocess
import sys
import tempfile

PICO = os.environ.get("PICO", "build/pico")


def pico(*args):
    return subprocess.run([PICO, "schedule", *args], capture_output=True, text=True, timeout=60)


def expect(cond, what):
    if not cond:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)


def main():
    ok = pico("allreduce", "--algorithm", "ring", "--np", "3", "--size", "12B")
    expect(ok.returncode == 0, f"ring goal: {ok.stderr}")
    expect(ok.stdout.startswith("num_ranks 3\n\nrank 0 {\nl0: send 4b to 1 tag 0\n"), ok.stdout[:80])
    expect(ok.stdout.count("rank ") == 3 and ok.stdout.endswith("}\n"), "three rank blocks")

    # Ranks are formatted on threads; the text must not depend on how many.
    one = pico("allreduce", "--algorithm", "segmented_ring", "--np", "9", "--size", "1MiB", "--threads", "1")
    three = pico("allreduce", "--algorithm", "segmented_ring", "--np", "9", "--size", "1MiB", "--threads", "3")
    expect(one.returncode == 0 and three.returncode == 0, one.stderr + three.stderr)
    expect(one.stdout == three.stdout and one.stdout.count("rank ") == 9, "--threads 1 and 3 differ")

    js = pico("alltoall", "--algorithm", "bruck", "--np", "5", "--size", "1KiB", "--dtype", "int8", "--format", "json")
    expect(js.returncode == 0, js.stderr)
    doc = json.loads(js.stdout)
    expect(doc["num_ranks"] == 5 and doc["count"] == 1024 and len(doc["ranks"]) == 5, "json fields")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bcast.goal")
        out = pico("bcast", "--algorithm", "chain", "--np", "4", "--size", "1MiB", "--segment-size", "256KiB",
                   "--root", "2", "-o", path)
        expect(out.returncode == 0 and out.stdout == "", out.stderr)
        text = open(path).read()
        expect(text.count(": send 262144b") == 12, "chain: 4 segments through 3 links")

    barrier = pico("barrier", "--algorithm", "dissemination", "--np", "6")
    expect(barrier.returncode == 0 and barrier.stdout.count(": send 0b") == 18, barrier.stderr)

    bad = {
        ("allreduce", "--algorithm", "nope", "--np", "4", "--size", "1KiB"):
            "no reference allreduce algorithm 'nope'",
        ("allreduce", "--algorithm", "ring", "--np", "0", "--size", "1KiB"): "--np must be at least 1",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "12Q"): "bad size '12Q'",
        ("allreduce", "--algorithm", "ring", "--np", "4"): "--size is required",
        ("allreduc", "--algorithm", "ring", "--np", "4", "--size", "8B"): "unknown collective 'allreduc'",
        ("bcast", "--algorithm", "binomial", "--np", "4", "--size", "8B", "--in-place"): "no in-place form of bcast",
        ("sendrecv", "--algorithm", "ring", "--np", "4", "--size", "8B"): "pico has no reference sendrecv algorithm",
        ("reduce", "--algorithm", "binomial", "--np", "4", "--size", "8B", "--root", "4"): "root 4 is outside",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "--dtype", "float8"): "unknown datatype",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "--format", "xml"): "xml",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "--threads", "-1"): "--threads",
        # GOAL's own flags, declared by its format: refused with another, checked as GOAL needs them.
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "-f", "json", "--tag-base", "3"):
            "--format json takes no --tag-base",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "--tag-base", "1.5"): "--tag-base",
        ("allreduce", "--algorithm", "ring", "--np", "4", "--size", "8B", "--tag-base", "2147483647"):
            "pass GOAL's largest tag",
        ("alltoallv", "--algorithm", "linear", "--np", "4", "--size", "8B", "--counts", "hot:rank=4"):
            "the hot rank 4 is not among the 4 ranks",
        ("alltoall", "--algorithm", "linear", "--np", "4", "--size", "8B", "--counts", "uniform"):
            "alltoall takes no count matrix",
    }
    for args, message in bad.items():
        proc = pico(*args)
        expect(proc.returncode == 2, f"{args}: exit {proc.returncode}, want 2")
        expect(message in proc.stderr, f"{args}: {proc.stderr!r} lacks {message!r}")
    hint = pico("allreduce", "--algorithm", "nope", "--np", "4", "--size", "1KiB").stderr
    expect("hint: one of recursive_doubling, ring, rabenseifner" in hint, hint)
    hint = pico("sendrecv", "--algorithm", "ring", "--np", "4", "--size", "1KiB").stderr
    hint_line = next((line for line in hint.splitlines() if "hint:" in line), "")
    expect("one of allreduce, bcast" in hint_line and "sendrecv" not in hint_line, hint)
    print("schedule cli: ok")


if __name__ == "__main__":
    main()
