#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Per-rank timing and stragglers named (docs/methodology.md#per-rank-timing):
the fault backend's last rank arriving late, or leaving late after arriving on
time, named by the report as what it did; a uniform run naming nobody; with
per-rank timing turned off, nothing kept and stragglers not measured; the link
probe on one host not measured (no inter-host link), skipped with per-rank timing.
"""

import base64
import os
import re
import struct

from e2e import TEST_BACKENDS, cases_by, checked_report, expect, expect_bad_input, pico, report_path, run_experiment
from e2e_html import chart_divs, check_readable, chromium_dump, skip_without_browser

# 30 samples or more per case, one round (the record then holds them all): a
# share of 80% of 30 calls is named with its 95% bound above half.
STRAGGLER_TIMING = ("timing: {warmup: 1, min_iterations: 30, max_iterations: 60, time_budget: 100ms, "
                    "case_timeout: 60s, rounds: 1, keep_samples: true}\n")


def named(case):
    return [(s["rank"], s["kind"]) for s in case["rank_timing"]["stragglers"]]


def test_stragglers(tmp):
    # 2 ranks: no more than the test machine's cores (an oversubscribed launch is not judged).
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast]
        sizes: [64B]
        processes: [2]
        backends:
          - {library: fault, algorithms: [late, slow]}
        """, env=TEST_BACKENDS, timing=STRAGGLER_TIMING)
    report = checked_report(proc)
    clock = report["provenance"]["launches"][0]["clock_sync"]
    expect(clock["method"].startswith("ping-pong with rank 0") and len(clock["offsets_s"]) == 2, str(clock))
    expect(0 <= clock["max_residual_s"] < 1e-3 and clock["offsets_s"][0] == 0, str(clock))
    # The link probe beside it: one pair, on one host, so no inter-host link to judge ("not measured", not "none").
    probe = report["provenance"]["launches"][0]["link_probe"]
    expect(probe["rank_pairs"] == 1 and [p["intra_host"] for p in probe["host_pairs"]] == [True], str(probe))
    expect(report["slow_links"]["verdict"] == "not_measured" and report["slow_links"]["named"] == [],
           str(report["slow_links"]))
    late = cases_by(report, collective="allreduce", algorithm="late")[0]
    expect(named(late) == [(1, "late_arrival")], f"the late rank named for arriving late: {late['rank_timing']}")
    expect(late["rank_timing"]["stragglers"][0]["excess_s"] > 5e-3, "by about the 10 ms injected")
    slow = cases_by(report, collective="allreduce", algorithm="slow")[0]
    expect(named(slow) == [(1, "slow_progress")], f"the slow rank named for leaving late: {slow['rank_timing']}")
    expect(slow["rank_timing"]["slowest_rank"]["rank"] == 1, "the slow rank is the slowest most often")
    bcast_late = cases_by(report, collective="bcast", algorithm="late")[0]
    expect(named(bcast_late) == [(1, "late_arrival")], str(bcast_late["rank_timing"]))
    # A bcast's ranks leave apart by its own order: slow progress is not judged there.
    bcast_slow = cases_by(report, collective="bcast", algorithm="slow")[0]
    expect(bcast_slow["rank_timing"]["judged"] == {"late_arrival": True, "slow_progress": False},
           str(bcast_slow["rank_timing"]["judged"]))
    # keep_samples: every rank's arrival and exit of every sample, compact; arrivals on one clock.
    samples = late["rank_samples"]
    n = samples["ranks"] * samples["samples"]
    expect(samples["samples"] == late["iterations"], "one arrival per sample and rank")
    arrival = struct.unpack(f"<{n}f", base64.b64decode(samples["arrival_s"]))
    late_by = [arrival[samples["samples"] + i] - arrival[i] for i in range(samples["samples"])]
    expect(sorted(late_by)[len(late_by) // 2] > 8e-3, f"rank 1 enters about 10 ms after rank 0: {late_by[:5]}")

    # The run's stragglers in report.json: the rank once, over its cases, with its pooled share.
    run = report["stragglers"]
    expect(run["judged_cases"] == 4 and len(run["named"]) == 1, str(run))
    rank1 = run["named"][0]
    expect(rank1["host"] is None and rank1["ranks"] == [1] and len(rank1["cases"]) == 3, str(rank1))
    expect(rank1["kinds"] == ["late_arrival", "slow_progress"] and rank1["share"]["ci95_low"] >= 0.5, str(rank1))
    # Named for the run: 3 of its 4 cases, where chance names a rank in 5% of them (P 4.8e-4, below 0.01).
    expect(rank1["eligible_cases"] == 4 and rank1["p_chance"] < 1e-3 and run["within_chance"] == [], str(run))
    expect({c["algorithm"] for c in rank1["cases"]} == {"late", "slow"}, str(rank1["cases"]))

    for fmt in ("table", "term"):
        out = pico("report", report_path(proc), "--format", fmt)
        expect(out.returncode == 0, out.stderr)
        text = " ".join(out.stdout.split())  # the terminal view wraps lines
        expect("stragglers (4 case(s) with per-rank timing)" in text, f"{fmt}: {out.stdout}")
        expect("rank 1 arrives late and leaves late after arriving on time in 3 of 4 case(s)" in text,
               f"{fmt}: one entry for the rank, both kinds: {out.stdout}")
        expect("allreduce 64B slow, 2 ranks (slow progress" in text, out.stdout)
        expect("rank 0" not in text, f"{fmt}: rank 0 named: {out.stdout}")
        expect("slow links: not measured: one host: no inter-host links" in text, f"{fmt}: {out.stdout}")


def test_no_false_stragglers(tmp):
    # Three uniform runs of collectives whose ranks leave together and of rooted ones, small and larger.
    for run in range(3):
        proc = run_experiment(f"{tmp}", f"""\
            name: uniform-{run}
            collectives: [allreduce, allgather, alltoall, bcast, reduce, gather, scatter, scan]
            sizes: [8B, 4KiB, 64KiB]
            processes: [2]
            backends:
              - {{library: mpi}}
            """, timing=STRAGGLER_TIMING.replace(", keep_samples: true", ""))
        report = checked_report(proc)
        for c in report["cases"]:
            expect(c["rank_timing"]["stragglers"] == [],
                   f"run {run}: {c['collective']} {c['bytes']} B named {c['rank_timing']['stragglers']}")
        expect(report["stragglers"] == {"judged_cases": 24, "oversubscribed_cases": 0, "unmeasured_cases": 0,
                                        "test": {"chance_case_share": 0.05, "alpha": 0.01},
                                        "named": [], "within_chance": []},
               f"run {run}: {report['stragglers']}")
        out = pico("report", report_path(proc))
        expect("stragglers: none in 24 case(s) with per-rank timing" in out.stdout, out.stdout)


def test_rank_timing_off(tmp):
    # timing.rank_timing: false: the late rank's cases are measured, but no
    # rank's times are kept, no clock is synchronised, and the report says
    # its stragglers were not measured, not that there were none.
    proc = run_experiment(tmp, """\
        collectives: [allreduce, bcast]
        sizes: [64B]
        processes: [2]
        backends:
          - {library: fault, algorithms: [late]}
          - {library: mpi}
        """, env=TEST_BACKENDS, timing=STRAGGLER_TIMING.replace("rounds: 1", "rank_timing: false"))
    report = checked_report(proc)  # against docs/report.schema.json
    expect(report["experiment"]["parsed"]["timing"]["rank_timing"] is False, str(report["experiment"]["parsed"]))
    expect(len(report["cases"]) == 4, f"{len(report['cases'])} cases")
    for c in report["cases"]:
        expect(c["status"] == "ok" and c["timing"] is not None, f"{c['case_id']}: {c['status']} {c['reason']}")
        expect("rank_timing" not in c and "rank_samples" not in c, f"{c['case_id']}: per-rank data kept")
        expect(c["rank_timing_off"] is True and len(c["samples_s"]) == c["iterations"], c["case_id"])
    for launch in report["provenance"]["launches"]:
        expect("clock_sync" not in launch and "link_probe" not in launch,
               f"launch {launch['launch']}: clocks synchronised or links probed for nothing")
    expect(report["slow_links"]["verdict"] == "not_measured" and "per-rank timing off" in report["slow_links"]["reason"],
           str(report["slow_links"]))
    expect(report["stragglers"] == {"judged_cases": 0, "oversubscribed_cases": 0, "unmeasured_cases": 4,
                                    "test": {"chance_case_share": 0.05, "alpha": 0.01},
                                    "named": [], "within_chance": []}, str(report["stragglers"]))
    for fmt in ("table", "term"):
        out = pico("report", report_path(proc), "--format", fmt)
        text = " ".join(out.stdout.split())
        expect(out.returncode == 0 and "stragglers: not measured in 4 case(s): per-rank timing off" in text,
               f"{fmt}: {out.stdout}")
        expect("none in" not in text, f"{fmt}: 'none' claims a uniform run: {out.stdout}")

    # A value other than a boolean: the one error format, at the value, exit 2.
    bad = os.path.join(tmp, "bad.yaml")
    with open(bad, "w", encoding="utf-8") as f:
        f.write("collectives: [allreduce]\nsizes: [8B]\ntiming:\n  rank_timing: off-please\n")
    expect_bad_input(r"bad\.yaml:4:16: rank_timing must be true or false, got 'off-please'",
                     "run", bad, "-o", os.path.join(tmp, "bad-results"))


def test_rank_timing_rounds(tmp):
    # Interleaved rounds (the default 5) keep round 0's per-rank timing, and
    # every rank's samples only where keep_samples asks: the rounds take them
    # for pooling, and they had leaked into every case of the report.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B]
        processes: [2]
        backends:
          - {library: mpi, algorithms: [default, recursive_doubling]}
        """, timing="timing: {warmup: 1, min_iterations: 10, max_iterations: 50, time_budget: 50ms, case_timeout: 60s}\n")
    report = checked_report(proc)
    for c in report["cases"]:
        expect(c["status"] == "ok" and len(c["rounds"]["samples"]) == 5, f"{c['case_id']}: {c.get('rounds')}")
        expect(c["rank_timing"]["samples"] == c["rounds"]["samples"][0], "round 0's per-rank timing")
        expect("rank_samples" not in c and "samples_s" not in c, f"{c['case_id']}: samples kept unasked")
        expect("rank_timing_off" not in c, c["case_id"])


def test_html_stragglers(tmp):
    # The HTML page's stragglers section, drawn by headless chromium: the rank
    # named once in its table, and a ranks x iterations heat map for each case
    # it was named in, its row the late one; none for the cases without one.
    skip_without_browser("html_stragglers")
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B]
        processes: [2]
        backends:
          - {library: fault, algorithms: [late, slow]}
          - {library: mpi}
        """, env=TEST_BACKENDS, timing=STRAGGLER_TIMING)
    report = checked_report(proc)
    page = os.path.join(tmp, "report.html")
    made = pico("report", report_path(proc), "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    dom, _ = chromium_dump(page, "--dump-dom")
    expect('data-pico-done="true"' in dom, "the page finished drawing")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "no drawing error: " + dom[dom.find("pico-errors"):][:600])
    expect('<h2 id="stragglers">stragglers</h2>' in dom and 'href="#stragglers"' in dom, "a stragglers section")
    table = re.search(r'<table class="summary stragglers">(.*?)</table>', dom, re.S)
    expect(table, "a table of the stragglers")
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    expect(len(rows) == 2 and "<td>rank 1</td>" in rows[1], f"rank 1 named once: {rows}")
    expect("late arrival, slow progress" in rows[1] and "<td>2</td>" in rows[1], rows[1])
    heats = [(title, inner) for kind, title, rendered, inner in chart_divs(dom) if kind == "stragglers-heat"]
    titles = {t for t, _ in heats}
    named_cases = {f"allreduce 64B {c['algorithm']}, 2 ranks: lateness per rank and iteration"
                   for n in report["stragglers"]["named"] for c in n["cases"]}
    expect(titles == named_cases and len(heats) == len(titles), f"heat maps of the named cases only: {titles}")
    expect({"allreduce 64B late, 2 ranks: lateness per rank and iteration",
            "allreduce 64B slow, 2 ranks: lateness per rank and iteration"} <= titles, str(titles))
    late = cases_by(report, collective="allreduce", algorithm="late")[0]
    for title, inner in heats:
        if " late, " not in title and " slow, " not in title:
            continue
        # Each cell's ARIA label: "iteration: 3; rank: rank 1 (host); entered after the first (µs): ...; late (µs): ...".
        cells = re.findall(r'iteration: (\d+); rank: rank (\d)[^;]*;[^;]*; late \(µs\): ([0-9.,e+-]+)', inner)
        expect(len(cells) == 2 * late["iterations"] or "slow" in title, f"{title}: one cell per rank and iteration: {len(cells)}")
        by_rank = {r: sorted(float(v.replace(",", "")) for _, rr, v in cells if rr == r) for r in ("0", "1")}
        expect(by_rank["0"] and by_rank["1"], f"{title}: both ranks drawn")
        median = lambda v: v[len(v) // 2]
        expect(median(by_rank["1"]) > 5000 and median(by_rank["1"]) > 10 * max(median(by_rank["0"]), 1),
               f"{title}: rank 1's row is the late one: {median(by_rank['0'])} vs {median(by_rank['1'])} us")
    check_readable(dom, chart_divs(dom))
