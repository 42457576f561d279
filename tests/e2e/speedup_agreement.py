#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One speedup everywhere (issue 65): a pair of reports built from a real
recorded case (tests/data/case-records/measured.json, in the wrapper of
tests/data/report-example.json), the baseline with one injected slow round
(10.9 ms among rounds of about 1.1 ms, as the issue's run had), must get the
same speedup, interval and verdict, to the printed digits, from `pico
compare`, `pico report A B --format table` and `--format term`, and the HTML
page's embedded data; and the verdict at that size is "undecided". A second
size, clearly faster, checks that the views agree on a decided row too.

Run: PICO=build/pico python3 tests/e2e/speedup_agreement.py
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]
PICO = os.environ.get("PICO", str(SOURCE / "build" / "pico"))
MIB = 1 << 20


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def pico(*args):
    r = subprocess.run([PICO, *args], capture_output=True, text=True, timeout=120)
    expect(r.returncode == 0, f"pico {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def record(case_id, nbytes, median_s, spread, rounds=None):
    """The recorded case at another size and time: its timing scaled to median_s."""
    rec = json.loads((SOURCE / "tests/data/case-records/measured.json").read_text())
    scale = median_s / rec["timing"]["median_s"]
    for k in list(rec["timing"]):
        if k.endswith("_s"):
            rec["timing"][k] *= scale
    rec["timing"]["ci95_low_s"] = median_s * (1 - spread)
    rec["timing"]["ci95_high_s"] = median_s * (1 + spread)
    rec["case_id"] = case_id
    rec["bytes"] = nbytes
    rec["count"] = nbytes // 4
    if rounds is not None:
        rec["rounds"] = {"seed": 7, "order": [0] * len(rounds), "median_s": rounds, "samples": [40] * len(rounds)}
        rec["stop_reason"] = "rounds"
    return rec


def report(cases):
    r = json.loads((SOURCE / "tests/data/report-example.json").read_text())
    r["cases"] = cases
    return r


def write_pair(tmp):
    # 1 MiB: the medians; the baseline's third round hit by a slow period.
    base_mib = record("mib", MIB, 1145.765e-6, 0.2, [1.10e-3, 1.16e-3, 10.9e-3, 1.12e-3, 1.18e-3])
    cand_mib = record("mib", MIB, 989.261e-6, 0.2, [0.93e-3, 0.99e-3, 1.21e-3, 0.96e-3, 1.17e-3])
    # 8 B: half the time, tight intervals, no rounds: the medians' envelope decides.
    base_small = record("small", 8, 3.0e-6, 0.01)
    cand_small = record("small", 8, 1.5e-6, 0.01)
    paths = []
    for name, cases in (("a", [base_small, base_mib]), ("b", [cand_small, cand_mib])):
        p = tmp / name / "report.json"
        p.parent.mkdir()
        p.write_text(json.dumps(report(cases)))
        paths.append(str(p.parent))
    return paths


SPEEDUP = re.compile(r"(\d+\.\d{3})x\s+(\[\d+\.\d{3}, \d+\.\d{3}\]|none)\s+(faster|slower|undecided)")


def rows_of(text, sizes=("8B", "1MiB")):
    """size -> (speedup, interval, verdict) as a table printed them."""
    out = {}
    for line in text.splitlines():
        m = SPEEDUP.search(line)
        if not m:
            continue
        for size in sizes:
            if re.search(rf"\b{re.escape(size)}\b", line):
                out[size] = m.groups()
    return out


def page_rows(html):
    m = re.search(r'<script[^>]*id="pico-data"[^>]*>(.*?)</script>', html, re.S)
    expect(m, "the page embeds its data")
    data = json.loads(m.group(1))
    strings = data["strings"]
    cases_table = data["tables"]["cases"]
    cases = [dict(zip(cases_table["columns"], r)) for r in cases_table["rows"]]
    compared = data["tables"]["compared"]
    out = {}
    for r in compared["rows"]:
        row = dict(zip(compared["columns"], r))
        nbytes = cases[row["case"]]["bytes"]
        size = "1MiB" if nbytes == MIB else "8B"
        interval = "none" if row["speedup_low"] is None else f"[{row['speedup_low']:.3f}, {row['speedup_high']:.3f}]"
        out[size] = (f"{row['speedup']:.3f}", interval, strings[row["verdict"]])
    expect("speedup_definition" in data, "the page carries pico's definition of the figure")
    return out


def main():
    expect(Path(PICO).exists(), f"{PICO} not built")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        a, b = write_pair(tmp)
        views = {
            "compare": rows_of(pico("compare", a, b)),
            "report table": rows_of(pico("report", a, b, "--format", "table")),
            "report term": rows_of(pico("report", a, b, "--format", "term")),
        }
        compare_json = json.loads(pico("compare", a, b, "--format", "json"))
        page = tmp / "page.html"
        vega = pico_vega_available()
        if vega:
            pico("report", a, b, "--format", "html", "-o", str(page))
            views["html data"] = page_rows(page.read_text())
        else:
            print("note: no Vega library (scripts/setup-vega.sh): the HTML page is not checked", file=sys.stderr)
        reference = views["compare"]
        print(json.dumps(views, indent=1))
        expect(set(reference) == {"8B", "1MiB"}, f"compare printed both sizes: {reference}")
        for name, rows in views.items():
            expect(rows == reference, f"{name} says {rows}, compare says {reference}")
        speedup, interval, verdict = reference["1MiB"]
        expect(verdict == "undecided", f"1 MiB with a slow round: {verdict}, not undecided")
        # The point estimate is the ratio of the medians the table prints beside it, inside its interval.
        expect(speedup == f"{1145.765 / 989.261:.3f}", f"1 MiB speedup {speedup}, not the medians' ratio")
        low, high = (float(x) for x in interval.strip("[]").split(", "))
        expect(low <= float(speedup) <= high, f"estimate {speedup} outside {interval}")
        expect(reference["8B"][2] == "faster", f"8 B at half the time: {reference['8B']}")
        mib = next(r for r in compare_json if r["bytes"] == MIB)
        expect(f"{mib['speedup']:.3f}" == speedup and mib["verdict"] == "undecided", f"--format json: {mib}")
    print("ok")


def pico_vega_available():
    vega = Path(os.environ.get("PICO_VEGA_DIR", SOURCE / "third_party/vega/node_modules"))
    return (vega / "vega-lite").exists()


if __name__ == "__main__":
    main()
