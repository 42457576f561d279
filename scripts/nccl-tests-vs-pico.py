#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per-size time of nccl-tests (*_perf runs' stdout) beside pico's (report.json
files of the same collective), and their ratio: the check of issue 31 and
docs/nccl.md's "Against nccl-tests".

    scripts/nccl-tests-vs-pico.py --nccl-tests OUT... --pico REPORT... [--json FILE] [--band 0.95:1.05]

Give each side several rounds, run interleaved (nccl-tests, pico, nccl-tests,
pico, ...): a GPU host's launch rate drifts by tens of percent between runs a
minute apart, and small sizes are launch-bound. Each side's time per size is
its best round; the spread (worst / best round) is printed beside it.
nccl-tests' time is the out-of-place column (microseconds, the mean of its -n
calls); pico's is the median of its samples (each a mean of calls_per_sample
calls) of the out-of-place case of that size. nccl-tests' size is the whole
buffer (allgather: np blocks); pico's cases are per rank block, so sizes match
on one rank and are multiplied by the rank count otherwise. Exit status: 0 when
every shared size's ratio lies in the band, 1 when one does not, 2 on bad input.
"""
import argparse
import json
import re
import sys

# size count type redop root time algbw busbw #wrong ... (nccl-tests' util.cu line layout)
DATA_LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+\S+\s+\S+\s+-?\d+\s+([0-9.eE+-]+)\s")
RANKS_LINE = re.compile(r"nThread \d+ nGpus (\d+)")
DEVICE_LINE = re.compile(r"#\s+Rank\s+\d+\s+Group.*device\s+\d+\s+\[[^\]]*\]\s+(.*)$")


def fail(message):
    print(f"nccl-tests-vs-pico: {message}", file=sys.stderr)
    sys.exit(2)


def read_nccl_tests(path):
    times, ranks, device = {}, 0, ""
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        fail(f"{path}: {e}")
    with f:
        for line in f:
            if (m := DEVICE_LINE.search(line)) and not device:
                device = m.group(1).strip()
            if line.lstrip().startswith("# Rank"):
                ranks += 1
            if m := DATA_LINE.match(line):
                times[int(m.group(1))] = float(m.group(3)) * 1e-6
    if not times:
        fail(f"{path}: no result lines (is it a *_perf run's output?)")
    return times, max(ranks, 1), device


def read_pico(path):
    """{(block bytes, np): median seconds}, the collective, how pico sampled."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    rows, collective, method = {}, "", ""
    for c in report.get("cases", []):
        if c.get("status") != "ok" or c.get("in_place") or not c.get("timing"):
            continue
        collective = c["collective"]
        method = f'{c.get("timing_method", "?")} of {c.get("calls_per_sample", "?")}'
        rows[(c["bytes"], c["np"])] = c["timing"]["median_s"]
    if not rows:
        fail(f"{path}: no measured out-of-place case")
    return rows, collective, method


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nccl-tests", nargs="+", required=True, metavar="OUT")
    parser.add_argument("--pico", nargs="+", required=True, metavar="REPORT")
    parser.add_argument("--json")
    parser.add_argument("--band", default="0.95:1.05", help="accepted pico/nccl-tests ratios LO:HI")
    a = parser.parse_args()
    try:
        lo, hi = (float(v) for v in a.band.split(":"))
    except ValueError:
        fail(f"--band {a.band}: write LO:HI, e.g. 0.95:1.05")
    reference_rounds = [read_nccl_tests(path) for path in a.nccl_tests]
    device = next((d for _, _, d in reference_rounds if d), "")
    pico_rounds = [read_pico(path) for path in a.pico]
    collective, method = pico_rounds[0][1], pico_rounds[0][2]
    if any(c != collective for _, c, _ in pico_rounds):
        fail("the pico reports measure different collectives")
    print(f"{collective}: pico ({method}, {len(pico_rounds)} rounds) vs nccl-tests ({len(reference_rounds)} rounds)"
          f"{' on ' + device if device else ''}; best round each, spread = worst / best")
    print(f"{'size':>12}  {'nccl-tests us':>13}  {'spread':>6}  {'pico us':>9}  {'spread':>6}  {'pico/nccl-tests':>15}")
    out, outside = [], 0
    for block, np in sorted(set.intersection(*(set(times) for times, _, _ in pico_rounds))):
        whole = block * np if collective in ("allgather", "reduce_scatter") else block
        theirs = [times[whole] for times, _, _ in reference_rounds if whole in times]
        if len(theirs) != len(reference_rounds):
            continue
        ours = [times[(block, np)] for times, _, _ in pico_rounds]
        ratio = min(ours) / min(theirs)
        flag = "" if lo <= ratio <= hi else "  outside"
        outside += bool(flag)
        print(f"{whole:>12}  {min(theirs) * 1e6:>13.2f}  {max(theirs) / min(theirs):>6.2f}  {min(ours) * 1e6:>9.2f}"
              f"  {max(ours) / min(ours):>6.2f}  {ratio:>15.3f}{flag}")
        out.append({"bytes": whole, "np": np, "nccl_tests_s": theirs, "pico_s": ours, "ratio": ratio})
    if not out:
        fail("no size is in both")
    print(f"{len(out) - outside} of {len(out)} sizes within {lo}-{hi}")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"collective": collective, "pico_method": method, "device": device, "band": [lo, hi],
                       "sizes": out}, f, indent=1)
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
