#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

The HTML report rendered by a real browser (chromium, headless).
"""

import json
import os
import re
import shutil
import subprocess
import sys

from e2e import PLAN_ORDER_TIMING, SRC, expect, load, pico, report_path, run_experiment, unwrapped


HTML_EXPERIMENT = """\
    collectives: [allreduce]
    sizes: [2B, 1KiB, 64KiB]
    processes: [2, 3]
    backends:
      - {library: mpi, algorithms: [default, recursive_doubling, ring]}
      - {library: mpi, call: nonblocking}
      - {library: reference, algorithms: [rabenseifner]}
      - {library: compressed, algorithms: [dense, global_qsgd], params: {bits: [8]}}
    instrumentation: {phases: true, calls: 3}
    """


def chromium_dump(page, *extra):
    """The page's DOM once its scripts ran (headless chromium), and chromium's log."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--no-first-run", "--virtual-time-budget=60000", "--enable-logging=stderr", "--v=0",
                           "--window-size=1400,9000", *extra, "file://" + page],
                          capture_output=True, text=True, timeout=240)
    expect(proc.returncode == 0, f"chromium exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return proc.stdout, proc.stderr


def chart_divs(dom):
    """(kind, title, rendered, inner html) of each chart of the page, in page order."""
    starts = [m for m in re.finditer(r'<div class="pico-chart[^"]*" ([^>]*)>', dom)]
    out = []
    for i, m in enumerate(starts):
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', m.group(1)))
        end = starts[i + 1].start() if i + 1 < len(starts) else len(dom)
        out.append((attrs.get("kind"), attrs.get("title"), attrs.get("rendered"), dom[m.end():end]))
    return out


def expected_winners(report):
    """Per (np, bytes) of the allreduce cases: the algorithm label with the smallest median."""
    best = {}
    for c in report["cases"]:
        if c["status"] != "ok" or not c["timing"]:
            continue
        key = (c["np"], c["bytes"], c["dtype"])
        params = ";".join(f"{k}={v}" for k, v in sorted(c["params"].items()))
        call = c.get("options", {}).get("call")
        label = f"{c['backend']}/{c['algorithm']}" + (f"[{params}]" if params else "") + (f" ({call})" if call else "")
        if key not in best or c["timing"]["median_s"] < best[key][1]:
            best[key] = (label, c["timing"]["median_s"])
    return best


def skip_without_browser(test):
    vega_dir = os.environ.get("PICO_VEGA_DIR") or os.path.join(SRC, "third_party", "vega", "node_modules")
    if not shutil.which("chromium") and not shutil.which("chromium-browser"):
        print(f"SKIP {test}: no chromium (scripts/setup.sh installs it)", file=sys.stderr)
        sys.exit(77)
    if not os.path.exists(os.path.join(vega_dir, "vega", "build", "vega.min.js")):
        print(f"SKIP {test}: no vega in {vega_dir} (scripts/setup-vega.sh installs it)", file=sys.stderr)
        sys.exit(77)


def test_html_report(tmp):
    # A real run drawn as the HTML page, rendered by headless chromium: every
    # chart drawn, no error, and the drawn values are the report's.
    skip_without_browser("html_report")
    proc = run_experiment(tmp, HTML_EXPERIMENT)
    expect(proc.returncode == 0, proc.stderr[-3000:])
    results = os.path.dirname(report_path(proc))
    report = load(report_path(proc))
    expect(any(c["status"] == "skipped" for c in report["cases"]), "2B float32 is skipped")
    page = os.path.join(tmp, "report.html")
    # The same run twice stands for two machines: the page compares them.
    made = pico("report", results, report_path(proc), "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    expect(re.fullmatch(rf"wrote {re.escape(page)} \(HTML page of 2 reports, [0-9.]+KiB\)\n", made.stdout),
           f"-o says what it wrote: {made.stdout!r}")
    html = open(page, encoding="utf-8").read()
    expect(not re.search(r"<script[^>]+src=|<link[^>]+href=", html), "self-contained: no external script or style")
    missing = pico("report", results, "--format", "html", "-o", os.path.join(tmp, "x.html"),
                   env={"PICO_VEGA_DIR": os.path.join(tmp, "nowhere")})
    expect(missing.returncode == 2 and re.match(r"pico: error: \S*nowhere/vega/build/vega\.min\.js: .*\n  hint: .*setup-vega",
                                                missing.stderr), missing.stderr)
    expect(not os.path.exists(os.path.join(tmp, "x.html")), "nothing written without the library")

    dom, log = chromium_dump(page, "--dump-dom")
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and ("rror" in line or "arn" in line)]
    expect(not console_errors, "console errors:\n" + "\n".join(console_errors))
    expect('data-pico-done="true"' in dom, "the page finished drawing")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "no drawing error: " + dom[dom.find("pico-errors"):][:600])
    charts = chart_divs(dom)
    count = int(re.search(r'data-pico-charts="(\d+)"', dom).group(1))
    expect(len(charts) == count and count > 0, f"{len(charts)} chart elements, {count} charts")
    kinds = {k for k, *_ in charts}
    expect({"status", "time", "busbw", "heatmap", "normalised", "phases", "compression", "tradeoff", "overlap",
            "reports"} <= kinds, str(kinds))
    for kind, title, rendered, inner in charts:
        expect(rendered == "true" and "<svg" in inner, f"{title}: not drawn")
        expect(len(re.findall(r'role="graphics-symbol"', inner)) > 0, f"{title}: no marks")
    # The heatmap writes each size's fastest algorithm: the report's.
    heat = next(inner for kind, _, _, inner in charts if kind == "heatmap")
    texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", heat))
    for (np, size, dtype), (label, _) in expected_winners(report).items():
        expect(label in texts, f"np={np} {size}B: winner {label} not drawn; drawn: {sorted(texts)}")
    # The time chart's points carry the medians drawn (their ARIA labels, µs).
    time_chart = next(inner for kind, _, _, inner in charts if kind == "time")
    drawn = [float(v.replace(",", "")) for v in re.findall(r"median \(µs\): ([0-9.,e+-]+)", time_chart)]
    medians = [c["timing"]["median_s"] * 1e6 for c in report["cases"] if c["status"] == "ok"]
    expect(drawn, "no median drawn")
    for d in drawn:
        expect(any(abs(d - m) <= 1e-3 * m for m in medians), f"{d} us drawn, not a median of the report")
    for m in medians:
        expect(any(abs(d - m) <= 1e-3 * m for d in drawn), f"median {m} us not drawn; drawn {sorted(drawn)[:20]}")
    # The overlap chart draws the non-blocking cases' overlap (OSU's definition), the report's values.
    overlap_chart = next(inner for kind, _, _, inner in charts if kind == "overlap")
    drawn = sorted(float(v) for v in re.findall(r"overlap \(%\): ([0-9.]+)", overlap_chart))
    measured = [c["overlap"]["percent"] for c in report["cases"] if c["status"] == "ok" and "overlap" in c]
    # 1 KiB and 64 KiB on 2 and 3 ranks (2 B of float32 is skipped), the page showing the report twice.
    expect(len(measured) == 4 and drawn, f"overlap drawn {drawn}, measured {measured}")
    for m in measured:
        expect(any(abs(d - round(m, 1)) < 0.051 for d in drawn), f"overlap {m}% not drawn; drawn {drawn}")
    for d in drawn:
        expect(any(abs(d - round(m, 1)) < 0.051 for m in measured), f"{d}% drawn, not an overlap of the report")
    check_readable(dom, charts)
    check_drawn_axes(dom, charts, report)
    # The summary table answers first, with the report's numbers (issue 36).
    summary = summary_rows(dom)
    expect(dom.find('id="pico-summary"') < dom.find('class="pico-chart'), "the summary comes before the charts")
    for (np, size, dtype), (label, median) in expected_winners(report).items():
        # Side by side (two reports), a compressed winner's cell carries its error after the name.
        rows = [r for r in summary if r["np"] == np and r["bytes"] == size
                and any(cell == label or cell.startswith(label + " (rel L2 ") for cell in r["cells"])]
        expect(rows and any(abs(r["best_s"] - median) <= 1e-12 * median for r in rows),
               f"np={np} {size}B: summary {rows} lacks the winner {label} at {median} s")
    defaults = {(c["np"], c["bytes"], c["dtype"]): c["timing"]["median_s"] for c in report["cases"]
                if c["status"] == "ok" and c["backend"] == "compressed" and c["algorithm"] == "dense"}
    expect(any(r.get("reference_s") is not None for r in summary), "a default beside the fastest")
    for r in summary:
        if r.get("reference_s") is not None:
            expect(any(abs(r["reference_s"] - d) <= 1e-12 * d for d in defaults.values())
                   or any(abs(r["reference_s"] - c["timing"]["median_s"]) <= 1e-12 * c["timing"]["median_s"]
                          for c in report["cases"] if c["status"] == "ok"), f"default time {r} not the report's")
    # Oversubscription (np 3 on a 2-core machine) is said above the summary, per report (issue 51).
    if report["provenance"].get("oversubscribed"):
        warning = dom.find('class="warning"')
        expect(0 <= warning < dom.find('id="pico-summary"') and "oversubscribed" in dom[warning:warning + 800],
               "the oversubscription warning above the summary")
    # Provenance: rank 0's environment folds (a two-report page was 13,000 px); the GPUs by name, not raw JSON.
    provenance = dom[dom.find('class="provenance"'):]
    expect("<details>" in provenance and " lines: " in provenance, "the environment folds")
    expect(not re.search(r"GPU devices</th><td>\[", provenance), "GPU devices as names")
    # One run alone is titled by its experiment: no "1:" where nothing else is numbered (issue 65).
    alone = os.path.join(tmp, "alone.html")
    expect(pico("report", results, "--format", "html", "-o", alone).returncode == 0, "one report drawn")
    title = re.search(r"<title>([^<]*)</title>", open(alone, encoding="utf-8").read()).group(1)
    expect(title == "pico report: " + report["experiment"]["name"], f"title {title!r}")
    check_clamped_interval(tmp, report)
    check_error_bound(tmp, report)
    shot = os.path.join(os.environ.get("PICO_HTML_SCREENSHOT_DIR", tmp), "html_report.png")
    chromium_dump(page, f"--screenshot={shot}")
    expect(os.path.getsize(shot) > 10000, "screenshot written")
    print(f"screenshot: {shot}")

    # A quickstart-like run, one algorithm per collective: the summary alone, no chart comparing nothing.
    single = run_experiment(tmp, """\
        collectives: [allreduce, barrier]
        sizes: [8B, 1KiB]
        processes: [2]
        """)
    expect(single.returncode == 0, single.stderr[-2000:])
    single_page = os.path.join(tmp, "single.html")
    made = pico("report", os.path.dirname(report_path(single)), "--format", "html", "-o", single_page)
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(single_page, "--dump-dom")
    expect('data-pico-done="true"' in dom, "the single-algorithm page finished drawing")
    expect(chart_divs(dom) == [], f"charts drawn for one algorithm: {[k for k, *_ in chart_divs(dom)]}")
    expect(len(summary_rows(dom)) == 3, f"summary rows: {summary_rows(dom)}")  # allreduce 8B, 1KiB; barrier


def summary_rows(dom):
    """The summary table's rows: np, bytes, the fastest's and the default's seconds, the cells' text."""
    table = dom[dom.find('id="pico-summary"'):]
    table = table[:table.find("</table>")]
    rows = []
    for m in re.finditer(r"<tr ([^>]*)>(.*?)</tr>", table, re.S):
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', m.group(1)))
        rows.append({"np": int(attrs["np"]), "bytes": int(attrs["bytes"]),
                     "best_s": float(attrs["best-s"]) if "best-s" in attrs else None,
                     "reference_s": float(attrs["reference-s"]) if "reference-s" in attrs else None,
                     "cells": re.findall(r"<td[^>]*>([^<]*)</td>", m.group(2))})
    return rows


def check_readable(dom, charts):
    """What the page measured of itself in the browser: nothing wider than the 1,400 px window, no
    axis label over another, no colour for two lines of a panel in any view a chart's menu offers, no
    legend cut short; and every chart offers its SVG and PNG (vega-embed's actions)."""
    width = int(re.search(r'data-pico-page-width="(\d+)"', dom).group(1))
    window = int(re.search(r'data-pico-window-width="(\d+)"', dom).group(1))
    wide = re.search(r'data-pico-wide="([^"]*)"', dom).group(1)
    expect(width <= window, f"the page is {width} px wide in a {window} px window: {wide}")
    overlaps = int(re.search(r'data-pico-label-overlaps="(\d+)"', dom).group(1))
    examples = re.search(r'data-pico-label-overlap-examples="([^"]*)"', dom).group(1)
    expect(overlaps == 0, f"{overlaps} pairs of axis labels drawn over each other: {examples}")
    repeated = int(re.search(r'data-pico-repeated-colours="(\d+)"', dom).group(1))
    examples = re.search(r'data-pico-repeated-colour-examples="([^"]*)"', dom).group(1)
    expect(repeated == 0, f"{repeated} views give two lines one colour: {examples}")
    cut = int(re.search(r'data-pico-truncated-legends="(\d+)"', dom).group(1))
    expect(cut == 0, f"{cut} legends cut short")
    for kind, title, _, inner in charts:
        expect("vega-actions" in inner and "Save as SVG" in inner and "Save as PNG" in inner,
               f"{title}: no SVG/PNG export")


def size_text(n):
    """A byte count as pico writes it (support/size_text.hpp): 2B, 1KiB, 64KiB, 1.5MiB."""
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    unit, value = 0, float(n)
    while unit + 1 < len(units) and value >= 1024:
        value /= 1024
        unit += 1
    return f"{value:.4g}{units[unit]}"


def axes(inner, title):
    """Per axis of a chart titled `title`: (its ARIA label, the tick labels drawn, those shown)."""
    out = []
    for m in re.finditer(r'<g class="mark-group role-axis"[^>]*aria-label="([^"]*titled \'' + re.escape(title)
                         + r'\'[^"]*)"', inner):
        end = inner.find('class="mark-group role-axis"', m.end())
        group = inner[m.end():end if end > 0 else len(inner)]
        labels = group[group.find("role-axis-label"):]
        labels = labels[:labels.find("</g>")]
        texts = re.findall(r"<text([^>]*)>([^<]*)</text>", labels)
        out.append((m.group(1), [t for _, t in texts], [t for a, t in texts if 'opacity="0"' not in a]))
    return out


def check_drawn_axes(dom, charts, report):
    """What the browser drew of issue 65's complaints: the size axis ticked at the measured sizes alone,
    in pico's size text; interval marks inside their plots; the phase chart's sizes on their own time
    axes; tables without exponent notation."""
    measured = {size_text(c["bytes"]) for c in report["cases"] if c["status"] == "ok"}
    time_chart = next(inner for kind, _, _, inner in charts if kind == "time")
    size_axes = axes(time_chart, "size (bytes per rank block)")
    expect(size_axes, "the time chart has a size axis")
    for label, drawn, shown in size_axes:
        expect(set(drawn) == measured and len(drawn) == len(measured), f"size ticks {drawn}, measured {sorted(measured)}")
    marks = int(re.search(r'data-pico-interval-marks="(\d+)"', dom).group(1))
    outside = int(re.search(r'data-pico-intervals-outside="(\d+)"', dom).group(1))
    examples = re.search(r'data-pico-intervals-outside-examples="([^"]*)"', dom).group(1)
    expect(marks > 0 and outside == 0, f"{outside} of {marks} interval marks beyond their plot: {examples}")
    phases = next(inner for kind, _, _, inner in charts if kind == "phases")
    phase_sizes = {c["bytes"] for c in report["cases"] if c["status"] == "ok" and c.get("phases")}
    time_axes = [label for label, _, _ in axes(phases, "time (µs)")]
    expect(len(phase_sizes) > 1 and len(time_axes) == len(phase_sizes) and len(set(time_axes)) == len(time_axes),
           f"{len(phase_sizes)} sizes with phases, their time axes: {time_axes}")
    cells = re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", dom)
    # A number in exponent notation is the whole cell (with its unit), not a hex digest or version in it.
    exponents = [c for c in cells if re.fullmatch(r"\s*[-+]?\d+(\.\d+)?[eE][+-]?\d+\s*\S{0,3}\s*", c)]
    expect(cells and not exponents, f"table cells in exponent notation: {exponents[:10]}")


def check_clamped_interval(tmp, report):
    """A case whose interval reaches far past every median (one slow round's worth) is cut at the
    time axis, a triangle at each cut end, inside the plot, its tooltip the true bounds."""
    wide = json.loads(json.dumps(report))
    ok = [c for c in wide["cases"] if c["status"] == "ok" and c["np"] == 2]
    # Past every median of the page, every process count's: on a loaded machine the oversubscribed np 4
    # cases take milliseconds and stretch the axis far beyond np 2's longest.
    measured = [c["timing"]["median_s"] for c in wide["cases"] if c["status"] == "ok"]
    longest, shortest = max(measured), min(measured)
    ok[0]["timing"]["ci95_high_s"] = longest * 1000
    ok[1]["timing"]["ci95_low_s"] = shortest / 1000
    dom = edited_page(tmp, "wide", wide)
    outside = int(re.search(r'data-pico-intervals-outside="(\d+)"', dom).group(1))
    expect(outside == 0, f"{outside} interval marks beyond their plot")
    time_chart = next(inner for kind, _, _, inner in chart_divs(dom) if kind == "time")
    for layer, bound, value in (("high", "CI high", ok[0]["timing"]["ci95_high_s"]), ("low", "CI low", ok[1]["timing"]["ci95_low_s"])):
        group = re.search(r'class="mark-symbol role-mark pico_clamped_' + layer + r'_marks"[^>]*>(.*?)</g>', time_chart, re.S)
        labels = re.findall(r'aria-label="([^"]*)"', group.group(1)) if group else []
        # The run's own noisy cases may be cut too: the injected one is among them, by its true bound.
        drawn = [float(re.search(re.escape(bound) + r" \(µs\): ([0-9.,]+)", label).group(1).replace(",", "")) for label in labels]
        expect(any(abs(d - value * 1e6) <= 1e-3 * value * 1e6 for d in drawn),
               f"no cut {layer} end marked with its true {bound} {value * 1e6} µs: {labels}")


def edited_page(tmp, name, report):
    """The DOM of the HTML page of an edited copy of a run's report, rendered in chromium without a script error."""
    os.makedirs(os.path.join(tmp, name))
    with open(os.path.join(tmp, name, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f)
    page = os.path.join(tmp, name + ".html")
    made = pico("report", os.path.join(tmp, name), "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(page, "--dump-dom")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), f"the {name} page drawn without error")
    return dom


def check_error_bound(tmp, report):
    """A compressed winner whose relative L2 error is past the bound (docs/compression.md#error-bound, the
    `!` of pico's terminal and compare tables) is named with the mark in the summary and the heatmap, the
    default's loss to it is not coloured one, and a legend under the summary says why (issue 65)."""
    useless = json.loads(json.dumps(report))
    # np 2's compressed cases alone, global_qsgd 1000 times faster than it ran: each size's winner, its
    # answer said to be mostly error; dense stays each size's default.
    useless["cases"] = [c for c in useless["cases"]
                        if c["status"] == "ok" and c["np"] == 2 and c["backend"] == "compressed"]
    for c in useless["cases"]:
        if c["algorithm"] == "dense":
            continue
        for key in list(c["timing"]):
            if key.endswith("_s"):
                c["timing"][key] /= 1000
        if "rounds" in c:
            c["rounds"]["median_s"] = [t / 1000 for t in c["rounds"]["median_s"]]
        c["compression"]["rel_l2_error"] = 0.96
    expect(any(c["algorithm"] != "dense" for c in useless["cases"]), "a compressed case to mark")
    dom = edited_page(tmp, "useless", useless)
    rows = summary_rows(dom)
    expect(rows and all(r["cells"][4].startswith("compressed/global_qsgd") and r["cells"][4].endswith(" !") for r in rows),
           f"each size's winner marked: {[r['cells'] for r in rows]}")
    table = dom[dom.find('id="pico-summary"'):]
    table = table[:table.find("</table>")]
    expect('class="loses"' not in table, "a loss to a useless winner is not coloured one")
    legend = re.search(r'<p class="how" id="pico-error-bound">([^<]*)</p>', dom)
    expect(legend and legend.group(1).startswith("!: relative L2 error above 0.5 (docs/compression.md#error-bound)")
           and dom.find('id="pico-summary"') < legend.start(), "the legend under the summary")
    heat = next(inner for kind, _, _, inner in chart_divs(dom) if kind == "heatmap")
    expect(any("global_qsgd" in t and t.endswith(" !") for t in re.findall(r"<text[^>]*>([^<]+)</text>", heat)),
           "the heatmap names the winner with its mark")


BCAST_VARIANTS = """\
    collectives: [bcast]
    sizes: [8B, 16KiB, 1MiB]
    processes: [2]
    backends:
      - library: mpi
        algorithms: all
        params: {segment_size: [0, 8KiB, 64KiB], chain_fanout: [2, 4]}
    validation: false
    """


def over_fastest_tables(dom):
    """The algorithm x size tables: per table, per row (its full name) the cells' {bytes: ratio}."""
    tables = []
    for m in re.finditer(r'<table class="over-fastest" ([^>]*)>(.*?)</table>', dom, re.S):
        rows = {}
        for row in re.finditer(r'<tr data-line="([^"]*)">(.*?)</tr>', m.group(2), re.S):
            name = re.search(r'<td class="name">([^<]*)</td>', row.group(2)).group(1)
            expect(name == row.group(1), f"row {row.group(1)} named {name}")
            rows[name.replace("&amp;", "&")] = {int(b): float(r) for b, r in
                                                re.findall(r'data-bytes="(\d+)" data-ratio="([0-9.e+-]+)"', row.group(2))}
        tables.append(rows)
    return tables


def test_html_variants(tmp):
    # Issue 51: a 25-variant bcast sweep and two of its runs compared on one page stay readable at
    # 1,400 px: one legend of distinct colours (the best variant of each algorithm, a menu for the
    # rest), every variant's full name and numbers in a table, the reports side by side.
    skip_without_browser("html_variants")
    runs = []
    for name in ("a", "b"):
        run_dir = os.path.join(tmp, name)
        os.makedirs(run_dir)
        proc = run_experiment(run_dir, BCAST_VARIANTS, timing=PLAN_ORDER_TIMING)  # one round: the page is tested
        expect(proc.returncode == 0, proc.stderr[-3000:])
        runs.append(report_path(proc))
    report = load(runs[0])
    ok = [c for c in report["cases"] if c["status"] == "ok"]
    labels = {label_of(c) for c in ok}
    expect(len(labels) >= 25, f"{len(labels)} variants measured: {sorted(labels)}")

    page = os.path.join(tmp, "variants.html")
    made = pico("report", runs[0], "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(page, "--dump-dom")
    expect('data-pico-done="true"' in dom and re.search(r'<div id="pico-errors" hidden="">', dom), "drawn without error")
    expect(f"<title>pico report: {report['experiment']['name']}</title>" in dom, "one run titled by its experiment")
    charts = chart_divs(dom)
    check_readable(dom, charts)
    # 8 B to 1 MiB: a tick at each measured size, in pico's size text, and nothing between.
    for _, drawn, _ in axes(next(inner for kind, _, _, inner in charts if kind == "time"), "size (bytes per rank block)"):
        expect(drawn == ["8B", "16KiB", "1MiB"], f"size ticks {drawn}")
    # One legend per chart, its entries the best variant of each of the ten algorithms (a menu for the rest).
    time_chart = next(inner for kind, _, _, inner in charts if kind == "time")
    legends = re.findall(r'class="mark-group role-legend"', time_chart)
    expect(len(legends) == 1, f"{len(legends)} legends on the time chart")
    families = {re.sub(r"\[.*\]", "", label) for label in labels}
    entries = re.findall(r'<g class="mark-text role-legend-label"[^>]*><text[^>]*>([^<]+)</text>', time_chart)
    expect(sorted(re.sub(r"\[.*\]", "", e) for e in entries) == sorted(families),
           f"legend {entries}: not one variant of each of {sorted(families)}")
    options = re.findall(r"<option value=\"([^\"]*)\"", time_chart)
    several = sorted({f for f in families if sum(re.sub(r"\[.*\]", "", l) == f for l in labels) > 1})
    expect(options == ["best"] + several, f"menu {options}, algorithms with variants {several}")
    # Every variant by its full name in the algorithm x size table, each cell its median over the fastest.
    tables = over_fastest_tables(dom)
    expect(len(tables) == 1 and set(tables[0]) == labels, f"table rows {sorted(tables[0]) if tables else []}")
    fastest = {}
    for c in ok:
        fastest[c["bytes"]] = min(fastest.get(c["bytes"], float("inf")), c["timing"]["median_s"])
    for c in ok:
        drawn = tables[0][label_of(c)].get(c["bytes"])
        want = c["timing"]["median_s"] / fastest[c["bytes"]]
        expect(drawn is not None and abs(drawn - want) <= 1e-9 * want, f"{label_of(c)} {c['bytes']} B: {drawn}, report {want}")
    shots = os.environ.get("PICO_HTML_SCREENSHOT_DIR", tmp)
    chromium_dump(page, f"--screenshot={os.path.join(shots, 'html_variants.png')}")

    # Two runs side by side, named by --label: the summary puts each size's answers in one row, the
    # later run's fastest over the baseline's with the interval from both medians' intervals.
    page = os.path.join(tmp, "two.html")
    made = pico("report", *runs, "--format", "html", "-o", page, "--label", "run A", "--label", "run B")
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(page, "--dump-dom")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "two-report page drawn without error")
    expect("<title>pico report: 1: run A; 2: run B</title>" in dom, "the labels given name the reports")
    charts = chart_divs(dom)
    check_readable(dom, charts)
    compared = [title for kind, title, _, _ in charts if kind == "reports"]
    expect(compared == ["bcast: 2: run B over the baseline"], f"comparison charts {compared}")
    expect(dom.find('id="compared"') < dom.find('id="collective-bcast"'), "the comparison before the per-collective charts")
    second = load(runs[1])
    summary = summary_rows(dom)
    expect(len(summary) == 3, f"one row per size, both reports in it: {len(summary)} rows")
    for row in summary:
        def best_of(r):
            return min((c for c in r["cases"] if c["status"] == "ok" and c["bytes"] == row["bytes"]),
                       key=lambda c: c["timing"]["median_s"])
        a, b = best_of(report), best_of(second)
        # The speedup pico computed (core/speedup.hpp): baseline's median over the later one's, inside its interval.
        m = re.fullmatch(r"([0-9.]+)x(?: \[([0-9.]+), ([0-9.]+)\])? (faster|slower|undecided)", row["cells"][9])
        expect(m, f"{row}: the speedup cell")
        speedup = float(m.group(1))
        expect(abs(speedup - a["timing"]["median_s"] / b["timing"]["median_s"]) <= 0.0006, f"{row}: speedup of {b}, {a}")
        if m.group(2):
            expect(float(m.group(2)) <= speedup <= float(m.group(3)), f"{row}: the estimate inside its interval")
        expect(label_of(a) in row["cells"][4] and label_of(b) in row["cells"][7], f"{row}: the fastest of each")
    chromium_dump(page, f"--screenshot={os.path.join(shots, 'html_two.png')}")
    check_longest_winners_fit(tmp, report, second)

    # `pico compare` names the baseline report first, by the label given; a label too many is refused.
    compared = pico("compare", *runs, "--label", "run A", "--label", "run B")
    expect(compared.returncode == 0, compared.stderr)
    # unwrapped: the heading is wrapped to 100 columns, and a temporary path is most of them.
    expect(unwrapped(compared.stdout).startswith(f"baseline report: {runs[0]} (1: run A)\ncandidate report: {runs[1]} (2: run B)\n"),
           compared.stdout[:400])
    unnamed = pico("compare", *runs)
    expect(re.match(r"baseline report: \S+ \(1: \S+ on local, openmpi [0-9.]+, \d{4}-\d\d-\d\d \d\d:\d\d\)\n",
                    unwrapped(unnamed.stdout)), f"default label: {unnamed.stdout[:300]}")
    for args in (["compare", *runs, "--label", "a", "--label", "b", "--label", "c"],
                 ["compare", runs[0], "--label", "a"],  # one report against itself: nothing to name
                 ["report", runs[0], "--label", "a"],
                 ["report", runs[0], "--format", "html", "-o", os.path.join(tmp, "x.html"), "--label", "a", "--label", "b"]):
        refused = pico(*args)
        expect(refused.returncode == 2 and refused.stderr.startswith("pico: error: --label: "), f"{args}: {refused.stderr}")


def check_longest_winners_fit(tmp, first, second):
    """The widest two-run summary this sweep can give still fits 1,400 px: the variant with the longest
    name (no space to wrap at) the fastest of both runs at every size, the later run the faster, so the
    speedup cell is coloured (not wrapped). Which variant won was left to the measurement before, and
    CI's winners once made the page 1,411 px wide (stop 78)."""
    ok = [c for c in first["cases"] if c["status"] == "ok"]
    longest = max((label_of(c) for c in ok), key=len)
    dirs = []
    for name, report, scale in (("long-a", first, 1e-3), ("long-b", second, 5e-4)):
        edited = json.loads(json.dumps(report))
        for c in edited["cases"]:
            if c["status"] == "ok" and label_of(c) == longest:
                for key in list(c["timing"]):
                    if key.endswith("_s"):
                        c["timing"][key] *= scale
                if "rounds" in c:
                    c["rounds"]["median_s"] = [t * scale for t in c["rounds"]["median_s"]]
        os.makedirs(os.path.join(tmp, name))
        with open(os.path.join(tmp, name, "report.json"), "w", encoding="utf-8") as f:
            json.dump(edited, f)
        dirs.append(os.path.join(tmp, name))
    page = os.path.join(tmp, "long.html")
    made = pico("report", *dirs, "--format", "html", "-o", page, "--label", "run A", "--label", "run B")
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(page, "--dump-dom")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "the longest-winners page drawn without error")
    rows = summary_rows(dom)
    expect(rows and all(r["cells"][4] == longest and r["cells"][7] == longest and r["cells"][9].endswith(" faster")
                        for r in rows), f"{longest} the fastest of both, the later faster: {[r['cells'] for r in rows]}")
    check_readable(dom, chart_divs(dom))


def label_of(c):
    """An algorithm as the page names it: backend/algorithm[parameters]."""
    params = ";".join(f"{k}={v}" for k, v in sorted(c["params"].items()))
    return f"{c['backend']}/{c['algorithm']}" + (f"[{params}]" if params else "")
